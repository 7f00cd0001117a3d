import type { MeUser, PublicUser } from '@cohort/shared/accounts';
import type { SessionUser } from '../../http/session.ts';

/** The only shape in which a user leaves the server to other users: no hashes, no Google ids. */
export function presentUser(u: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}): PublicUser {
  return { _id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName };
}

/** The signed-in user about themselves (GET /api/me): also whether their address is verified. */
export function presentMe(u: SessionUser): MeUser {
  return { ...presentUser(u), emailVerified: u.emailVerified };
}
