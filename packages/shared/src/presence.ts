import { z } from 'zod';

/**
 * Presence (online / away / offline) of workspace members. A signed-in page keeps one socket on
 * `/presence` open and reports whether its user is active there; the server folds all of a user's
 * tabs, on every node, into one status and tells only the people who share a workspace with them.
 */

export const PRESENCE_NAMESPACE = '/presence';

export const PRESENCE_EVENTS = {
  /** Client → server: `{state: 'active' | 'idle'}` for this tab. */
  activity: 'activity',
  /** Server → client: `{userId, status}` when a co-member's status changes. */
  changed: 'presenceChanged',
} as const;

export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const;
export const presenceStatus = z.enum(PRESENCE_STATUSES);
export type PresenceStatus = z.infer<typeof presenceStatus>;

/** What a tab reports about itself. */
export const ACTIVITY_STATES = ['active', 'idle'] as const;
export const activityState = z.enum(ACTIVITY_STATES);
export type ActivityState = z.infer<typeof activityState>;

export const PRESENCE_MESSAGES = {
  userNotFound: 'User not found',
  invalidState: "state must be 'active' or 'idle'",
  slowDown: 'Slow down',
} as const;

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

/** A tab with no keyboard, pointer or touch input for this long reports itself idle. */
export const IDLE_AFTER_MS = 5 * 60_000;
/** A tab hidden (minimised, another tab in front) for this long reports itself idle. */
export const HIDDEN_IDLE_AFTER_MS = 60_000;
/** A user whose last tab closed stays in their status this long, so a reload does not flap. */
export const OFFLINE_GRACE_MS = 5000;
/** A tab may report its state at most this many times per window (more are refused). */
export const ACTIVITY_RATE_LIMIT = 10;
export const ACTIVITY_RATE_WINDOW_MS = 10_000;
