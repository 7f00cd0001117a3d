/** Where a sign-in lands without a `next`: the dashboard of my workspaces (issue 19; SPEC §149 said /). */
export const AFTER_SIGN_IN = '/dashboard';

/**
 * Where to go after signing in. Only same-site paths are allowed so a crafted link cannot send a
 * fresh session to another site ("//evil.example" and "/\evil.example" are protocol-relative URLs).
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return AFTER_SIGN_IN;
  return next;
}
