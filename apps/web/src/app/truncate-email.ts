export const NAVBAR_EMAIL_MAX = 15;

/** The spec's navbar rule: at most 15 characters of the e-mail, then an ellipsis. */
export function truncateEmail(email: string, max = NAVBAR_EMAIL_MAX) {
  return email.length > max ? `${email.slice(0, max)}…` : email;
}
