import { z } from 'zod';
import { text } from './text.ts';

/** E-mail as users type it: trimmed and lower-cased before it is checked or stored. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'E-mail is too long')
  .pipe(z.email('Enter a valid e-mail address'));

export const PASSWORD_MIN_LENGTH = 8;
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'Password is too long');

const nameSchema = (label: string) =>
  text().trim().min(1, `${label} is required`).max(80, `${label} is too long (80 characters at most)`);

export const signupBody = z.object({
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
  email: emailSchema,
  password: passwordSchema,
});
export type SignupBody = z.infer<typeof signupBody>;

export const loginBody = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Password is required').max(256, 'Password is too long'),
  remember: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/** Google sign-in sends the Google Identity Services ID token; e-mail/googleId alone are never trusted. */
export const googleCredentialBody = z.object({
  credential: z.string().min(20, 'A Google credential is required').max(8192, 'Credential is too long'),
  remember: z.boolean().optional(),
});
export type GoogleCredentialBody = z.infer<typeof googleCredentialBody>;

/** Changing the password from the profile page: the current one proves it is the owner at the keyboard. */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(256, 'Password is too long'),
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const messageResponse = z.object({ message: z.string() });
export const tokenResponse = z.object({ token: z.string(), message: z.string() });
export type TokenResponse = z.infer<typeof tokenResponse>;

export const publicUser = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** The signed-in user about themselves: also whether their address is verified. */
export const meUser = publicUser.extend({ emailVerified: z.boolean() });
export type MeUser = z.infer<typeof meUser>;

export const meResponse = z.object({ user: meUser });
export type MeResponse = z.infer<typeof meResponse>;

/** The messages of the spec's error catalogue for accounts, shown by the client. */
export const ACCOUNT_MESSAGES = {
  loginSuccess: 'Login successful!',
  googleLoginSuccess: 'Google login successful!',
  signupSuccess: 'Account created successfully!',
  googleSignupSuccess: 'Google signup successful!',
  invalidCredentials: 'Invalid e-mail or password',
  emailTaken: 'An account with this e-mail already exists',
  tooManyAttempts: 'Too many login attempts. Please wait 15 minutes and try again.',
  signInSlowed: 'This account is receiving many sign-in attempts. Please wait 30 seconds and try again.',
  passwordsDiffer: 'Passwords do not match',
  wrongCurrentPassword: 'Current password is incorrect',
  googleOnlyAccount: 'This account signs in with Google and has no password to change',
  passwordChanged: 'Password changed. Your other sessions were signed out.',
} as const;

// -- E-mail: verified addresses, password reset, e-mail change (issue 16) -----------------------

/** A single-use token from a mailed link (/verify-email, /reset-password, /confirm-email ?token=…). */
export const linkTokenSchema = z
  .string({ error: 'The link is incomplete: open it again from the e-mail' })
  .trim()
  .min(16, 'The link is incomplete: open it again from the e-mail')
  .max(200, 'The link is not valid');

export const linkTokenBody = z.object({ token: linkTokenSchema });
export type LinkTokenBody = z.infer<typeof linkTokenBody>;

export const forgotPasswordBody = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.object({ token: linkTokenSchema, password: passwordSchema });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/** A reset signs in (`token`), except on an account with two-factor sign-in: it signs in at /login. */
export const resetPasswordResponse = z.object({
  message: z.string(),
  token: z.string().optional(),
  twoFactorRequired: z.boolean().optional(),
});
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponse>;

export const changeEmailBody = z.object({
  newEmail: emailSchema,
  password: z.string().min(1, 'Enter your password to change your e-mail').max(256, 'Password is too long'),
});
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;

/** How long mailed links work. */
export const VERIFY_EMAIL_TTL_HOURS = 24;
export const RESET_PASSWORD_TTL_MINUTES = 60;
export const CHANGE_EMAIL_TTL_HOURS = 24;

export const EMAIL_MESSAGES = {
  verificationSent: 'We sent a verification link to your e-mail address.',
  verified: 'Your e-mail address is verified.',
  alreadyVerified: 'Your e-mail address is already verified.',
  resendLimited: 'Too many verification e-mails. Please wait a while before asking for another.',
  bannerText: 'Please verify your e-mail address: open the link we sent you.',
  resend: 'Resend verification e-mail',
  linkInvalid: 'This link is not valid. Open the latest link we sent you, or ask for a new one.',
  linkUsed: 'This link was already used. Ask for a new one if you still need it.',
  linkExpired: 'This link has expired. Ask for a new one.',
  resetRequested: 'If an account exists for that address, we sent a link to reset its password.',
  resetDone: 'Your password was reset. Every session of the account was signed out; you are signed in here.',
  resetDoneTwoFactor:
    'Your password was reset and every session was signed out. Log in with it and your authentication code.',
  changeRequested:
    'We sent a confirmation link to your new address. The change takes effect when you open it.',
  changeSameAddress: 'That is already your e-mail address',
  changeConfirmed: 'Your e-mail address was changed.',
  changeLimited: 'Too many e-mail change requests. Please wait a while before asking again.',
  changeGoogleOnly: 'This account signs in with Google: it has no password to confirm the change with',
  wrongPassword: 'Password is incorrect',
  googleUnverified: 'Google has not verified this e-mail address, so it cannot be used to sign in',
  googleBadEmail: 'Google did not provide a valid e-mail address',
} as const;

// -- Login step two: two-factor sign-in (issue 16) ----------------------------------------------

/**
 * A correct password on an account with 2FA on: no session yet. `challenge` is redeemed with a code
 * at POST /api/login/two-factor within 5 minutes.
 */
export const twoFactorChallengeResponse = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  message: z.string(),
});
export type TwoFactorChallengeResponse = z.infer<typeof twoFactorChallengeResponse>;

/** What POST /api/login answers: a session, or the code step. */
export const loginResponse = z.union([tokenResponse, twoFactorChallengeResponse]);
export type LoginResponse = z.infer<typeof loginResponse>;

export const loginTwoFactorBody = z.object({
  challenge: z.string().min(1, 'Log in with your password again').max(200, 'Challenge is too long'),
  /** An authenticator code or a recovery code. */
  code: z
    .string()
    .trim()
    .min(1, 'Enter the 6-digit code from your authenticator app, or a recovery code')
    .max(64, 'Code is too long'),
  /** Overrides the "Remember me" of the password step when given. */
  remember: z.boolean().optional(),
});
export type LoginTwoFactorBody = z.infer<typeof loginTwoFactorBody>;
