/**
 * How Cohort names a person, everywhere (server presenters, mails, the web): the first and last name
 * when either is set, else the part of the e-mail address before the @, else "unknown".
 * One rule so a person is called the same in a message, a notification, a mail and a call.
 */
export interface NameParts {
  firstName?: string | null;
  lastName?: string | null;
  /** An already composed name (what presenters send to the web). */
  name?: string | null;
  email?: string | null;
}

/** First and last name joined by one space, trimmed; '' when neither is set. */
export function fullName(p: { firstName?: string | null; lastName?: string | null }): string {
  return [p.firstName, p.lastName]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');
}

/** The name to show for a person (see above). */
export function displayName(p: NameParts | null | undefined): string {
  if (!p) return 'unknown';
  const name = fullName(p) || (p.name ?? '').trim();
  if (name) return name;
  const local = (p.email ?? '').split('@')[0]?.trim();
  return local || 'unknown';
}
