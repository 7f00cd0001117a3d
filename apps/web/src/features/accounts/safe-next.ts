/** Where a sign-in lands without a `next`: the dashboard of my workspaces (issue 19; SPEC §149 said /). */
export const AFTER_SIGN_IN = '/dashboard';

/**
 * Where to go after signing in. Only same-site paths are allowed so a crafted link cannot send a
 * fresh session to another site ("//evil.example" and "/\evil.example" are protocol-relative URLs).
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/')) return AFTER_SIGN_IN;
  // URL parsers drop tabs and newlines and read a backslash as "/": "/<tab>/evil" is "//evil" parsed.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  const cleaned = next.replace(/[\u0000-\u001f\u007f]/g, '').replaceAll('\\', '/');
  if (cleaned !== next || next.startsWith('//')) return AFTER_SIGN_IN;
  return next;
}
