// What saved.ts defines without zod, for screens that must not load the schemas up front.

/** At most this many saved messages per user. */
export const SAVED_PER_USER_MAX = 1000;

export const SAVED_KINDS = ['channel', 'direct'] as const;
export type SavedKind = (typeof SAVED_KINDS)[number];

export const SAVED_MESSAGES = {
  tooMany: `You can save at most ${SAVED_PER_USER_MAX} messages: remove some from Saved first`,
  messageNotFound: 'Message not found',
} as const;

/** Real-time (`/chat` and `/dm`, server → client, to the saver's own tabs only). */
export const SAVED_EVENTS = {
  savedChanged: 'savedChanged',
} as const;
