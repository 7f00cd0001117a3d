import { z } from 'zod';

export * from './security.constants.ts';

/**
 * Profile → Security (issue 16): the signed-in user's sessions, two-factor sign-in (TOTP, RFC 6238)
 * with recovery codes, and the workspace setting that requires it. The login code step itself is
 * in accounts.ts (`loginTwoFactorBody`), beside the login it continues.
 */

// -- Sessions ------------------------------------------------------------------------------------

export const sessionItem = z.object({
  _id: z.string(),
  /** "Chrome on macOS", read from the user agent the session signed in with. */
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** The session this request came with ("this device"). */
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItem>;
export const sessionList = z.array(sessionItem);

export const sessionParams = z.object({ sessionId: z.string().min(1).max(100) });

export const revokeOthersResponse = z.object({ message: z.string(), revoked: z.number().int() });
export type RevokeOthersResponse = z.infer<typeof revokeOthersResponse>;

// -- Two-factor sign-in ----------------------------------------------------------------------------

/** A 6-digit authenticator code; spaces (as apps show "123 456") are allowed and ignored. */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

/** An authenticator code or a recovery code: the server tells them apart. */
export const secondFactorCodeSchema = z
  .string()
  .trim()
  .min(1, 'Enter the code from your authenticator app, or a recovery code')
  .max(64, 'Code is too long');

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes left (0 when 2FA is off). */
  recoveryCodesLeft: z.number().int(),
  /** The account has a password (Google-only accounts turn 2FA off with a code alone). */
  hasPassword: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

export const twoFactorSetupResponse = z.object({
  /** The otpauth:// URI an authenticator app scans. */
  otpauthUri: z.string(),
  /** The same secret as text (base32), for typing in by hand. */
  secret: z.string(),
  /** The URI as a QR code: a `data:image/svg+xml;base64,…` URL for an <img>. */
  qrCode: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponse>;

export const twoFactorEnableBody = z.object({ code: totpCodeSchema });
export type TwoFactorEnableBody = z.input<typeof twoFactorEnableBody>;

export const twoFactorEnableResponse = z.object({
  message: z.string(),
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponse>;

export const twoFactorDisableBody = z.object({
  /** Required for accounts with a password; Google-only accounts have none to give. */
  password: z.string().max(256, 'Password is too long').optional(),
  code: secondFactorCodeSchema,
});
export type TwoFactorDisableBody = z.infer<typeof twoFactorDisableBody>;

// -- Workspaces that require it -------------------------------------------------------------------

export const workspaceTwoFactorBody = z.object({ required: z.boolean() });
export type WorkspaceTwoFactorBody = z.infer<typeof workspaceTwoFactorBody>;

export const workspaceTwoFactorResponse = z.object({
  required: z.boolean(),
  /** Members who have not turned on two-factor sign-in (they cannot open the workspace while it is required). */
  membersWithout: z.number().int(),
});
export type WorkspaceTwoFactorResponse = z.infer<typeof workspaceTwoFactorResponse>;
