// What chat.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). chat.ts re-exports all of it.

export const MESSAGE_MAX_LENGTH = 4000;

/** The server relays at most one `isTyping: true` per user per channel in this window. */
export const TYPING_THROTTLE_MS = 2000;

/** Without a refresh the server announces `isTyping: false` to the others after this long. */
export const TYPING_EXPIRE_MS = 5000;

export const DM_HISTORY_LIMIT = 50;

export const CHANNEL_HISTORY_DEFAULT_LIMIT = 50;

export const HISTORY_MAX_LIMIT = 200;

/** Flood guard per socket: more than this many sends within the window are refused with `Slow down`. */
export const SEND_RATE_LIMIT = 20;

export const SEND_RATE_WINDOW_MS = 5000;

export const CHAT_NAMESPACE = '/chat';

export const DM_NAMESPACE = '/dm';

export const CHAT_EVENTS = {
  // client → server
  joinChannel: 'joinChannel',
  leaveChannel: 'leaveChannel',
  typing: 'typing',
  sendMessage: 'sendMessage',
  // server → client
  newMessage: 'newMessage',
  /** A stored message changed: edited, deleted, reacted to, or replied to in its thread. */
  messageUpdated: 'messageUpdated',
  userTyping: 'userTyping',
} as const;

export const DM_EVENTS = {
  // client → server
  register: 'register',
  sendMessage: 'sendMessage',
  // server → client
  newMessage: 'newMessage',
  messageUpdated: 'messageUpdated',
} as const;

/** Reasons carried by `{ok: false, message}` acknowledgements and REST errors. */
/** Different emoji one message can carry: one person cannot make a message's reaction bar unbounded. */
export const MAX_DISTINCT_REACTIONS = 50;

export const CHAT_MESSAGES = {
  channelNotFound: 'Channel not found',
  tooManyReactions: `A message can carry ${MAX_DISTINCT_REACTIONS} different reactions at most; add to an existing one`,
  notAllowed: 'You may not post in this channel',
  contentRequired: 'Message cannot be empty',
  contentTooLong: `Message is too long (${MESSAGE_MAX_LENGTH} characters at most)`,
  invalidClientId: 'clientId must be a UUID',
  invalidPayload: 'Invalid payload',
  slowDown: 'Slow down',
  recipientNotFound: 'Recipient not found',
  notYourMessages: 'You can only read your own messages',
  messageNotFound: 'Message not found',
  notYourMessage: 'You can only edit your own messages',
  cannotDelete: 'You can only delete your own messages',
  messageDeleted: 'This message was deleted',
  invalidEmoji: 'Choose one emoji',
  invalidParent: 'Replies go to a message of this channel',
  serverError: 'Something went wrong',
  /** The database is unreachable for a moment (restart, failover): clients resend by themselves. */
  unavailable: 'Temporarily unavailable, retrying',
  /** The server's disk is full: not stored; the user may retry once space is freed. */
  storageFull: 'The server is out of storage space',
} as const;

/**
 * Send refusals that pass by themselves (the flood guard, a database restart): outboxes wait and
 * resend under the same clientId instead of showing the message as failed.
 */
export const TRANSIENT_SEND_REASONS: readonly string[] = [CHAT_MESSAGES.slowDown, CHAT_MESSAGES.unavailable];
