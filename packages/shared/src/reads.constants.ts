// What reads.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). reads.ts re-exports all of it.

/** A count stops at this many (the UI shows "99+"), so a listing stays cheap however far behind. */
export const UNREAD_CAP = 100;

export const READ_EVENTS = {
  readMarkChanged: 'readMarkChanged',
} as const;

export const READ_MESSAGES = {
  seqTooHigh: 'seq is beyond the newest message',
  invalidSeq: 'seq must be a whole number, 0 or more',
  invalidMuted: 'muted must be true or false',
} as const;

/** A direct conversation's newest message is listed cut to this many characters. */
export const DIRECT_EXCERPT_LENGTH = 140;
