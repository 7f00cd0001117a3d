import { z } from 'zod';
import { ACTIVITY_STATES, PRESENCE_MESSAGES, PRESENCE_STATUSES } from './presence.constants.ts';

export * from './presence.constants.ts';

/**
 * Presence (online / away / offline) of workspace members. A signed-in page keeps one socket on
 * `/presence` open and reports whether its user is active there; the server folds all of a user's
 * tabs, on every node, into one status and tells only the people who share a workspace with them.
 */

export const presenceStatus = z.enum(PRESENCE_STATUSES);
export type PresenceStatus = z.infer<typeof presenceStatus>;

export const activityState = z.enum(ACTIVITY_STATES);
export type ActivityState = z.infer<typeof activityState>;

/** The only thing a client may send: its own tab's state (no user id: the session decides who). */
export const activityPayload = z
  .object({ state: z.enum(ACTIVITY_STATES, { error: PRESENCE_MESSAGES.invalidState }) })
  .strict();
export type ActivityPayload = z.infer<typeof activityPayload>;

export const presenceChangedEvent = z.object({ userId: z.string(), status: presenceStatus });
export type PresenceChangedEvent = z.infer<typeof presenceChangedEvent>;

/** `GET /api/workspaces/{workspaceName}/presence`: every member's status by user id. */
export const workspacePresence = z.record(z.string(), presenceStatus);
export type WorkspacePresence = z.infer<typeof workspacePresence>;

/** `GET /api/presence/{email}`: one person's status (the DM header), for people sharing a workspace. */
export const personParams = z.object({ email: z.string().trim().min(1).max(320) });
export const personPresence = z.object({ userId: z.string(), status: presenceStatus });
export type PersonPresence = z.infer<typeof personPresence>;
