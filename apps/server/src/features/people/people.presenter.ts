import { displayName } from '@cohort/shared/names';
import type { Person } from '@cohort/shared/people';
import type { Peer } from '../workspaces/peers.access.ts';

/** The only shape a person leaves the people routes in. */
export function presentPerson(p: Peer): Person {
  return {
    _id: p.id,
    email: p.email,
    firstName: p.firstName,
    lastName: p.lastName,
    name: displayName(p),
    sharedWorkspaces: p.sharedWorkspaces,
  };
}
