import { z } from 'zod';
import { emailSchema } from './accounts.ts';
import {
  PEOPLE_DEFAULT_LIMIT,
  PEOPLE_MAX_LIMIT,
  PEOPLE_MESSAGES,
  PEOPLE_QUERY_MAX_LENGTH,
} from './people.constants.ts';

export * from './people.constants.ts';

/**
 * People: the accounts that share a workspace with the caller (the only people one may message or
 * call, `workspaces/peers.access.ts` on the server).
 *
 * - `GET /api/people?q=&limit=` → `Person[]`: co-members (never the caller) whose name or e-mail
 *   holds every word of `q` (all of them, by name, for an empty `q`), at most `limit`.
 * - `GET /api/people/:email` → the `Person` with that e-mail; 404 `PEOPLE_MESSAGES.notMessageable`
 *   for an unknown address, the caller, and anyone sharing no workspace with the caller alike (the
 *   endpoint must not tell who has an account).
 */

export const peopleSearchQuery = z.object({
  q: z.string().trim().max(PEOPLE_QUERY_MAX_LENGTH, PEOPLE_MESSAGES.queryTooLong).default(''),
  limit: z.coerce
    .number({ error: PEOPLE_MESSAGES.invalidLimit })
    .int(PEOPLE_MESSAGES.invalidLimit)
    .min(1, PEOPLE_MESSAGES.invalidLimit)
    .max(PEOPLE_MAX_LIMIT, PEOPLE_MESSAGES.invalidLimit)
    .default(PEOPLE_DEFAULT_LIMIT),
});
export type PeopleSearchQuery = z.input<typeof peopleSearchQuery>;

export const personParams = z.object({ email: emailSchema });

export const person = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** `displayName` of the person (names.ts). */
  name: z.string(),
  /** Names of the workspaces both the caller and this person are members of. */
  sharedWorkspaces: z.array(z.string()),
});
export type Person = z.infer<typeof person>;
export const personList = z.array(person);
