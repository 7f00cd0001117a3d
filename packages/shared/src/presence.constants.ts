// What presence.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). presence.ts re-exports all of it.

export const PRESENCE_NAMESPACE = '/presence';

export const PRESENCE_EVENTS = {
  /** Client → server: `{state: 'active' | 'idle'}` for this tab. */
  activity: 'activity',
  /** Server → client: `{userId, status}` when a co-member's status changes. */
  changed: 'presenceChanged',
} as const;

export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const;

/** What a tab reports about itself. */
export const ACTIVITY_STATES = ['active', 'idle'] as const;

export const PRESENCE_MESSAGES = {
  userNotFound: 'User not found',
  invalidState: "state must be 'active' or 'idle'",
  slowDown: 'Slow down',
} as const;

/** A tab with no keyboard, pointer or touch input for this long reports itself idle. */
export const IDLE_AFTER_MS = 5 * 60_000;

/** A tab hidden (minimised, another tab in front) for this long reports itself idle. */
export const HIDDEN_IDLE_AFTER_MS = 60_000;

/** A user whose last tab closed stays in their status this long, so a reload does not flap. */
export const OFFLINE_GRACE_MS = 5000;

/** A tab may report its state at most this many times per window (more are refused). */
export const ACTIVITY_RATE_LIMIT = 10;

export const ACTIVITY_RATE_WINDOW_MS = 10_000;
