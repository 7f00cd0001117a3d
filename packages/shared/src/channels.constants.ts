// What channels.ts defines without zod, so that a screen can import it without the schemas (issue 21:
// zod stays out of the channel page's first download). channels.ts re-exports all of it.

/** Real-time (`/chat`, server → client). */
export const CHANNEL_EVENTS = {
  /** A channel's name, description, topic or archived state changed: to its room. */
  channelUpdated: 'channelUpdated',
  /** Someone joined, left, was added or removed: to the channel's room and the people concerned. */
  channelMembersChanged: 'channelMembersChanged',
  /** To the tabs of someone removed from a private channel: they can no longer read it. */
  channelAccessLost: 'channelAccessLost',
} as const;
