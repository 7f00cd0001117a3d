import type { PublicUser } from '@cohort/shared/accounts';

/** The only shape in which a user leaves the server to other users: no hashes, no Google ids. */
export function presentUser(u: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}): PublicUser {
  return { _id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName };
}
