// What notifications.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). notifications.ts re-exports all of it.

/** `@[Display Name](email)`: the name may not contain `]` or a line break. */
export const MENTION_PATTERN = /@\[([^\]\n]{1,100})\]\(([^()\s@]+@[^()\s]+)\)/gu;

/** The markup the composer inserts for a member. */
export function mentionMarkup(name: string, email: string): string {
  const clean = name.replace(/[\]\n[]/g, ' ').trim() || (email.split('@')[0] ?? email);
  return `@[${clean}](${email})`;
}
