import { z } from 'zod';

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
  z.string().trim().min(1, `${label} is required`).max(80, `${label} is too long (80 characters at most)`);

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

export const meResponse = z.object({ user: publicUser });
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
  passwordsDiffer: 'Passwords do not match',
  wrongCurrentPassword: 'Current password is incorrect',
  googleOnlyAccount: 'This account signs in with Google and has no password to change',
  passwordChanged: 'Password changed. Your other sessions were signed out.',
} as const;
