// What security.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). security.ts re-exports all of it.

export const RECOVERY_CODE_COUNT = 10;

export const SECURITY_MESSAGES = {
  sessionNotFound: 'Session not found',
  othersRevoked: 'Every other session was signed out',
  alreadyEnabled: 'Two-factor sign-in is already on',
  notEnabled: 'Two-factor sign-in is not on',
  setupFirst: 'Start the setup again: no authenticator secret is waiting to be confirmed',
  enabled: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-factor sign-in is off',
  invalidCode: 'That code is not valid. Check your authenticator app (or use an unused recovery code).',
  passwordRequired: 'Enter your password',
  wrongPassword: 'Password is incorrect',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  loginCodeNeeded: 'Enter the code from your authenticator app to finish signing in',
  challengeExpired: 'This sign-in has expired or had too many wrong codes. Log in with your password again.',
  /** The distinct refusal of every route and socket join of a workspace that requires 2FA. */
  workspaceRequiresTwoFactor:
    'This workspace requires two-factor sign-in. Turn it on in Profile → Security to open it.',
  enableYoursFirst: 'Turn on two-factor sign-in for your own account before requiring it here',
  adminOfRequiringWorkspace: (names: string[]) =>
    `You are an admin of ${names.join(', ')}, which ${names.length === 1 ? 'requires' : 'require'} two-factor sign-in. Stop requiring it there first, so you do not lock yourself out.`,
} as const;
