import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@cohort/shared/security';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/**
 * The codes of two-factor sign-in: RFC 6238 TOTP through otplib (SHA-1, 6 digits, 30 s, what every
 * authenticator app speaks) and one-time recovery codes. No database here; the service decides
 * which step was last used and which recovery codes are left.
 */

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Cohort';

/** A fresh 160-bit secret, base32 as authenticator apps expect it. */
export const newTotpSecret = () => generateSecret();

export const otpauthUri = (email: string, secret: string) =>
  generateURI({ issuer: ISSUER, label: email, secret });

/** The URI as an SVG QR code in a data: URL (the CSP allows data: images; no request leaves the page). */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** A 6-digit code as typed ("123 456" included), or null when the input is not one. */
export function asTotpCode(input: string): string | null {
  const digits = input.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The time step `code` belongs to, accepting one step of clock drift either way, and only steps
 * after `afterStep` (the last one used: a code works once). Null when it matches none.
 */
export async function matchTotp(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // The functional API types TOTP and HOTP results together; only TOTP's carries the step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

// -- Recovery codes ------------------------------------------------------------------------------

/** 31 symbols without look-alikes (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** Ten codes like `k7dq-m2xa-9fpt` (about 59 bits each: far beyond guessing under the attempt limits). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: GROUPS }, () =>
      Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
    ).join('-'),
  );
}

/** Case, spaces and dashes do not matter when a recovery code is typed back. */
export const normalizeRecoveryCode = (input: string) => input.toLowerCase().replace(/[\s-]+/g, '');

/** Codes are high-entropy random strings, so a plain SHA-256 is enough to store them (no slow hash). */
export const hashRecoveryCode = (input: string) =>
  createHash('sha256').update(normalizeRecoveryCode(input)).digest('hex');
