import { z } from 'zod';
import { emailSchema } from './accounts.ts';
import { READ_MESSAGES } from './reads.constants.ts';

export * from './reads.constants.ts';

/**
 * Read marks: how far each user has read each channel and direct conversation (the seq of the newest
 * message seen), kept by the server so every tab and device agrees, plus a per-channel mute.
 *
 * - `GET /api/workspaces/:workspaceName/unread` → `ChannelUnread[]` for every channel the caller can read.
 * - `PUT /api/workspaces/:workspaceName/channels/:channelId/read {seq}` → the channel's `ChannelUnread`.
 * - `PUT /api/workspaces/:workspaceName/channels/:channelId/mute {muted}` → the same.
 * - `GET /api/direct/unread` → `DirectUnread[]`, one per conversation partner, newest message first.
 * - `PUT /api/direct/:email/read {seq}` → that conversation's `DirectUnread`.
 *
 * After a mark moves or a mute changes, every socket of that user gets `readMarkChanged`: on `/chat`
 * with a `ChannelUnread` (plus `workspaceId`), on `/dm` with a `DirectUnread`.
 */

export const markReadBody = z.object({
  seq: z
    .number({ error: READ_MESSAGES.invalidSeq })
    .int(READ_MESSAGES.invalidSeq)
    .min(0, READ_MESSAGES.invalidSeq),
});
export type MarkReadBody = z.input<typeof markReadBody>;

export const muteBody = z.object({ muted: z.boolean({ error: READ_MESSAGES.invalidMuted }) });
export type MuteBody = z.input<typeof muteBody>;

export const directReadParams = z.object({ email: emailSchema });

/**
 * `unread`: top-level messages from others, not deleted, with seq > lastReadSeq (thread replies and
 * the reader's own messages never count), at most UNREAD_CAP. `lastSeq`: the channel's newest seq
 * when this was computed (messages above it were not counted yet).
 */
export const channelUnread = z.object({
  channelId: z.string(),
  workspaceId: z.string(),
  lastReadSeq: z.number().int(),
  lastSeq: z.number().int(),
  unread: z.number().int(),
  muted: z.boolean(),
});
export type ChannelUnread = z.infer<typeof channelUnread>;
export const channelUnreadList = z.array(channelUnread);

export const directUnread = z.object({
  /** The conversation partner. */
  email: z.string(),
  /** The partner's `displayName` (names.ts). */
  name: z.string(),
  lastReadSeq: z.number().int(),
  lastSeq: z.number().int(),
  unread: z.number().int(),
  /**
   * In `GET /api/direct/unread` only (which lists the newest conversation first): the newest
   * message, its content cut to DIRECT_EXCERPT_LENGTH ('' once deleted); null before any message.
   */
  lastMessage: z
    .object({
      excerpt: z.string(),
      fromMe: z.boolean(),
      createdAt: z.string(),
      deleted: z.boolean(),
    })
    .nullable()
    .optional(),
});
export type DirectUnread = z.infer<typeof directUnread>;
export const directUnreadList = z.array(directUnread);
