import { z } from 'zod';
import { emailSchema } from './accounts.ts';
import {
  CHANNEL_HISTORY_DEFAULT_LIMIT,
  CHAT_MESSAGES,
  DM_HISTORY_LIMIT,
  HISTORY_MAX_LIMIT,
  MESSAGE_MAX_LENGTH,
} from './chat.constants.ts';
import { attachmentIds, storedFile } from './files.ts';
import { text } from './text.ts';

export * from './chat.constants.ts';

/**
 * The real-time chat protocol: Socket.IO namespaces `/chat` (channels) and `/dm` (direct messages),
 * their events, acknowledgements and the REST history endpoints. The server validates every payload
 * with these schemas; identity fields a client sends (`senderId`, `userId`, `senderEmail`) are
 * accepted and ignored — the sender is always the session user.
 */

// ---------------------------------------------------------------------------------------------------
// Constants

// ---------------------------------------------------------------------------------------------------
// Shared pieces

export const messageContent = text({ error: CHAT_MESSAGES.contentRequired })
  .trim()
  .min(1, CHAT_MESSAGES.contentRequired)
  .max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.contentTooLong);

export const clientIdSchema = z.uuid({ error: CHAT_MESSAGES.invalidClientId });

/**
 * A message's text may be blank when it carries attachments (a voice note, a picture); otherwise it
 * needs 1–4,000 characters once trimmed.
 */
const optionalContent = text({ error: CHAT_MESSAGES.contentRequired })
  .trim()
  .max(MESSAGE_MAX_LENGTH, CHAT_MESSAGES.contentTooLong);
const withAttachments = {
  content: optionalContent,
  /** Ids of files the sender uploaded for this conversation (POST /api/files). */
  attachments: attachmentIds.optional().default([]),
};
const notBlank = (m: { content: string; attachments: string[] }) =>
  m.content !== '' || m.attachments.length > 0;
const notBlankRule = { error: CHAT_MESSAGES.contentRequired, path: ['content'] };

const idString = z.string({ error: CHAT_MESSAGES.channelNotFound }).min(1).max(200);

// Built on first use: a segmenter loads the locale's break rules, ~20 ms of a phone's main thread
// when the chat schemas load with every page (issue 19), for a check only a reaction needs.
let graphemes: Intl.Segmenter | undefined;
function graphemeCount(s: string) {
  graphemes ??= new Intl.Segmenter();
  return [...graphemes.segment(s)].length;
}
/** Every code point is emoji material: pictographs and the parts sequences are built from. */
const EMOJI_MATERIAL = /^[\p{Extended_Pictographic}\p{Emoji_Component}]+$/u;
/** …and one of them is an emoji itself: a pictograph, a flag's regional indicator or a keycap. */
const EMOJI_CORE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
/**
 * One emoji: a single grapheme (so "👍👍" and "ok" are refused) made only of emoji material, with at
 * least one pictograph, flag or keycap in it; any emoji of the picker (ZWJ sequences, skin tones,
 * flags, keycaps) passes. At most 32 UTF-16 units: the longest standard sequences are about 15.
 */
export const emojiSchema = z
  .string({ error: CHAT_MESSAGES.invalidEmoji })
  .min(1, CHAT_MESSAGES.invalidEmoji)
  .max(32, CHAT_MESSAGES.invalidEmoji)
  .refine(
    (s) => EMOJI_MATERIAL.test(s) && EMOJI_CORE.test(s) && graphemeCount(s) === 1,
    CHAT_MESSAGES.invalidEmoji,
  );
/** The reactions a message shows: each emoji with who used it (`count` is `users.length`). */
export const messageReaction = z.object({
  emoji: z.string(),
  count: z.number().int(),
  users: z.array(z.object({ _id: z.string(), name: z.string() })),
});
export type MessageReaction = z.infer<typeof messageReaction>;
const seqSchema = z.number().int().nonnegative();

// ---------------------------------------------------------------------------------------------------
// /chat — client → server

export const channelRef = z.object({
  channelId: idString,
  workspaceName: z.string({ error: CHAT_MESSAGES.channelNotFound }).min(1).max(200),
});
export type ChannelRef = z.input<typeof channelRef>;

export const joinChannelPayload = channelRef;
export type JoinChannelPayload = z.input<typeof joinChannelPayload>;

export const leaveChannelPayload = channelRef;
export type LeaveChannelPayload = z.input<typeof leaveChannelPayload>;

/** `userId` from the spec's client is ignored. */
export const typingPayload = channelRef.extend({ isTyping: z.boolean() });
export type TypingPayload = z.input<typeof typingPayload>;

/** `message.senderId` from the spec's client is ignored. */
export const sendChannelMessagePayload = channelRef.extend({
  clientId: clientIdSchema,
  message: z
    .object(
      { ...withAttachments, parentId: z.uuid({ error: CHAT_MESSAGES.invalidParent }).optional() },
      { error: CHAT_MESSAGES.contentRequired },
    )
    .refine(notBlank, notBlankRule),
});
export type SendChannelMessagePayload = z.input<typeof sendChannelMessagePayload>;

// ---------------------------------------------------------------------------------------------------
// /chat — server → client

export const messageSender = z.object({
  _id: z.string(),
  email: z.string(),
  /** "First Last" when known, else ''. Clients fall back to the part of the e-mail before @. */
  name: z.string(),
});
export type MessageSender = z.infer<typeof messageSender>;

export const channelMessage = z.object({
  _id: z.string(),
  /** Gapless per channel, starting at 1. */
  seq: seqSchema,
  /** The channel id. */
  channel: z.string(),
  content: z.string(),
  /** ISO 8601, the commit time. */
  timestamp: z.string(),
  clientId: z.string(),
  sender: messageSender,
  /** Bumped by every change (channels' change counter): the higher rev of one _id is the newer state. */
  rev: z.number().int(),
  /** ISO time of the last edit, or null. */
  editedAt: z.string().nullable(),
  /** Deleted messages stay in place with empty content. */
  deleted: z.boolean(),
  /** Thread replies name their parent; top-level messages have null. */
  parentId: z.string().nullable(),
  replyCount: z.number().int(),
  lastReplyAt: z.string().nullable(),
  reactions: z.array(messageReaction),
  attachments: z.array(storedFile).default([]),
  /** 'system': an announcement ("Ada renamed the channel to …"); the sender is who acted. */
  kind: z.enum(['text', 'system']).default('text'),
  /**
   * Pinned to the channel (issue 22): who pinned it and when (ISO), or null. Pinning and unpinning
   * give the message the channel's next rev, so the change reaches reconnecting clients by backfill.
   */
  pinned: z
    .object({ by: z.object({ _id: z.string(), name: z.string() }), at: z.string() })
    .nullable()
    .optional(),
});
export type ChannelMessage = z.infer<typeof channelMessage>;
export const channelMessageList = z.array(channelMessage);

export const userTypingEvent = z.object({
  /** The channel the typing happens in (a socket may have several channels joined). */
  channelId: z.string(),
  userId: z.string(),
  email: z.string(),
  isTyping: z.boolean(),
});
export type UserTypingEvent = z.infer<typeof userTypingEvent>;

// ---------------------------------------------------------------------------------------------------
// Acknowledgements (joinChannel, sendMessage on both namespaces)

export const ackFailure = z.object({ ok: z.literal(false), message: z.string() });
export type AckFailure = z.infer<typeof ackFailure>;

export const joinChannelAck = z.union([z.object({ ok: z.literal(true) }), ackFailure]);
export type JoinChannelAck = z.infer<typeof joinChannelAck>;

export const sendChannelMessageAck = z.union([
  z.object({ ok: z.literal(true), message: channelMessage }),
  ackFailure,
]);
export type SendChannelMessageAck = z.infer<typeof sendChannelMessageAck>;

// ---------------------------------------------------------------------------------------------------
// /dm

export const DM_MESSAGE_TYPES = ['text'] as const;

/** `senderEmail` from the spec's client is ignored. */
export const sendDirectMessagePayload = z
  .object({
    ...withAttachments,
    receiverEmail: emailSchema,
    clientId: clientIdSchema,
    messageType: z.enum(DM_MESSAGE_TYPES).default('text'),
  })
  .refine(notBlank, notBlankRule);
export type SendDirectMessagePayload = z.input<typeof sendDirectMessagePayload>;

export const directMessage = z.object({
  _id: z.string(),
  /** Gapless per pair of users, starting at 1. */
  seq: seqSchema,
  /** E-mails. */
  sender: z.string(),
  receiver: z.string(),
  content: z.string(),
  /** ISO 8601, the commit time. */
  createdAt: z.string(),
  messageType: z.enum(DM_MESSAGE_TYPES),
  clientId: z.string(),
  rev: z.number().int(),
  editedAt: z.string().nullable(),
  deleted: z.boolean(),
  reactions: z.array(messageReaction),
  attachments: z.array(storedFile).default([]),
});
export type DirectMessage = z.infer<typeof directMessage>;
export const directMessageList = z.array(directMessage);

export const sendDirectMessageAck = z.union([
  z.object({ ok: z.literal(true), message: directMessage }),
  ackFailure,
]);
export type SendDirectMessageAck = z.infer<typeof sendDirectMessageAck>;

// ---------------------------------------------------------------------------------------------------
// REST

const optionalSeq = z.coerce.number().int().nonnegative().optional();

/**
 * GET /api/workspaces/:workspaceName/channels/:channelId/messages — an array oldest first.
 * No cursor: the newest `limit`. `before`: the newest `limit` with seq < before. `after`: the oldest
 * `limit` with seq > after (use it to backfill after a reconnect or a detected gap). Both: the oldest
 * `limit` strictly between them.
 */
export const channelHistoryQuery = z.object({
  before: optionalSeq,
  after: optionalSeq,
  /** Messages inserted or changed after this rev, by rev ascending (the change backfill). */
  changedAfter: optionalSeq,
  /** The page centred on this seq: half at or below it, half above (opening a search hit in context). */
  around: optionalSeq,
  limit: z.coerce.number().int().min(1).max(HISTORY_MAX_LIMIT).default(CHANNEL_HISTORY_DEFAULT_LIMIT),
});
export type ChannelHistoryQuery = z.input<typeof channelHistoryQuery>;

/** POST /api/workspaces/:workspaceName/channels/:channelId/messages → 201 the stored message. */
export const postChannelMessageBody = z
  .object({
    clientId: clientIdSchema,
    ...withAttachments,
    parentId: z.uuid({ error: CHAT_MESSAGES.invalidParent }).optional(),
  })
  .refine(notBlank, notBlankRule);
export type PostChannelMessageBody = z.input<typeof postChannelMessageBody>;

/** GET /api/messages/:email?with= — `:email` must be the caller (403 otherwise). */
export const directHistoryParams = z.object({ email: emailSchema });
export const directHistoryQuery = z.object({
  with: emailSchema,
  before: optionalSeq,
  after: optionalSeq,
  changedAfter: optionalSeq,
  /** The page centred on this seq, as for channels (opening a search hit in context). */
  around: optionalSeq,
  limit: z.coerce.number().int().min(1).max(HISTORY_MAX_LIMIT).default(DM_HISTORY_LIMIT),
});
export type DirectHistoryQuery = z.input<typeof directHistoryQuery>;

/** PATCH …/messages/:messageId (channel) and PATCH /api/direct-messages/:messageId. */
export const editMessageBody = z.object({ content: messageContent });
export type EditMessageBody = z.input<typeof editMessageBody>;

export const channelMessageParams = z.object({
  workspaceName: z.string().min(1).max(200),
  channelId: z.string().min(1).max(200),
  messageId: z.string().min(1).max(200),
});
export const channelReactionParams = channelMessageParams.extend({ emoji: emojiSchema });
export const directMessageParams = z.object({ messageId: z.string().min(1).max(200) });
export const directReactionParams = directMessageParams.extend({ emoji: emojiSchema });
