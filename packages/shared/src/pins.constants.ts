// What pins.ts defines without zod, so that the channel page can import it without the schemas
// (issue 21: zod stays out of the channel page's first download). pins.ts re-exports all of it.

/** At most this many pinned messages per channel (Slack's limit is 100 as well). */
export const PINS_PER_CHANNEL_MAX = 100;

export const PIN_MESSAGES = {
  tooMany: `A channel holds at most ${PINS_PER_CHANNEL_MAX} pinned messages: unpin one first`,
  notPinnable: 'Only messages of the channel can be pinned, not announcements or deleted messages',
} as const;

/** Real-time (`/chat`, server → client). */
export const PIN_EVENTS = {
  /** A message was pinned or unpinned (or a pinned one deleted): to the channel's room. */
  channelPinsChanged: 'channelPinsChanged',
} as const;

/** The announcement a pin writes in the channel ("Ada pinned a message"). */
export const pinAnnouncement = (actorName: string) => `${actorName} pinned a message`;
