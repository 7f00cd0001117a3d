import { z } from 'zod';
import { messageSender } from './chat.ts';
import { SAVED_KINDS } from './saved.constants.ts';

export * from './saved.constants.ts';

/**
 * Messages saved for later (issue 22): the caller's own, across workspaces and direct messages.
 * Listed only while the caller can still read them. Rules: docs/permissions.md ("Saved messages").
 */

export const savedMessageParams = z.object({
  kind: z.enum(SAVED_KINDS),
  messageId: z.string().min(1).max(200),
});

/** Where a saved message is: a channel of a workspace, or a direct conversation with someone. */
export const savedConversation = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('channel'),
    workspaceId: z.string(),
    workspaceName: z.string(),
    channelId: z.string(),
    channelName: z.string(),
  }),
  z.object({
    kind: z.literal('direct'),
    /** The other person of the conversation. */
    email: z.string(),
    name: z.string(),
  }),
]);
export type SavedConversation = z.infer<typeof savedConversation>;

export const savedItem = z.object({
  kind: z.enum(SAVED_KINDS),
  messageId: z.string(),
  /** ISO time it was saved. */
  savedAt: z.string(),
  conversation: savedConversation,
  sender: messageSender,
  content: z.string(),
  /** ISO time the message was sent. */
  timestamp: z.string(),
  seq: z.number().int(),
  /** A thread reply names its parent (the link opens the thread). */
  parentId: z.string().nullable(),
});
export type SavedItem = z.infer<typeof savedItem>;
export const savedItemList = z.array(savedItem);

/** The ids of the caller's saved messages (what the message menus show as "Remove from saved"). */
export const savedIds = z.object({ channel: z.array(z.string()), direct: z.array(z.string()) });
export type SavedIds = z.infer<typeof savedIds>;

/** `savedChanged`, to the saver's own tabs: a message was saved (`saved: true`) or removed. */
export const savedChangedEvent = z.object({
  kind: z.enum(SAVED_KINDS),
  messageId: z.string(),
  saved: z.boolean(),
});
export type SavedChangedEvent = z.infer<typeof savedChangedEvent>;
