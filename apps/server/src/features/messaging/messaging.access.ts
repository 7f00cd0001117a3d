import { CHAT_MESSAGES } from '@cohort/shared/chat';
import type { StoredFile } from '@cohort/shared/files';
import { displayName } from '@cohort/shared/names';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { anyUuidPlaceholder, uuidArrayLiteral } from '../../db/any-uuid.ts';
import { addReactionCapped } from '../../db/capped-reaction.ts';
import type { Db } from '../../db/client.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { channelMessageReactions, directMessageReactions, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import {
  attachFiles,
  attachmentsOf,
  deleteFilesOfMessages,
  type MessageKind,
} from '../files/files.access.ts';

/**
 * The messages of a conversation — a channel, or a direct pair — whatever its kind: reactions,
 * attachments, edit, delete. Channels and direct messages supply only what differs: how a message
 * is loaded for the caller (who may see it) and how a change takes the conversation's next rev.
 */

export type { MessageKind };

export interface StoredReaction {
  emoji: string;
  users: Array<{ id: string; name: string }>;
}

/** What every stored message has, whichever conversation it is in. */
export interface CoreMessage {
  id: string;
  sender: { id: string };
  deletedAt: Date | null;
}

/** One message as its conversation kind sees it. */
export interface MessageHandle<M extends CoreMessage> {
  kind: MessageKind;
  /** The message as the caller may see it (404 otherwise), with its reactions and files. */
  load(): Promise<M>;
  /** Applies `set` to the message and gives it the conversation's next rev, in one statement. */
  change(set: SQL): Promise<void>;
}

const reactionTable = (kind: MessageKind) =>
  kind === 'channel' ? channelMessageReactions : directMessageReactions;

/** The reactions of the messages `ids` with who reacted, in reaction order, per conversation kind. */
const reactionsOfQuery = (kind: MessageKind) =>
  preparedQuery(`reactions_of_${kind}_messages`, (db) => {
    const table = reactionTable(kind);
    return db
      .select({
        messageId: table.messageId,
        emoji: table.emoji,
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(table)
      .innerJoin(users, eq(users.id, table.userId))
      .where(anyUuidPlaceholder(table.messageId, 'ids'))
      .orderBy(asc(table.createdAt));
  });
const reactionsOf = { channel: reactionsOfQuery('channel'), direct: reactionsOfQuery('direct') };

/**
 * Each message's reactions (who reacted, in reaction order) and files: two queries at once, pool
 * permitting. Deleted messages have neither (deleting removed them), so they are not asked for.
 */
export async function reactionsAndFiles<R extends { id: string; deletedAt: Date | null }>(
  ctx: AppContext,
  kind: MessageKind,
  rows: R[],
): Promise<Array<R & { reactions: StoredReaction[]; attachments: StoredFile[] }>> {
  const ids = rows.filter((r) => !r.deletedAt).map((r) => r.id);
  const [reactions, files] = await Promise.all([
    ids.length === 0 ? [] : reactionsOf[kind](ctx.db).execute({ ids: uuidArrayLiteral(ids) }),
    attachmentsOf(ctx, kind, ids),
  ]);
  const byMessage = new Map<string, StoredReaction[]>();
  for (const r of reactions) {
    const list = byMessage.get(r.messageId) ?? [];
    let entry = list.find((e) => e.emoji === r.emoji);
    if (!entry) {
      entry = { emoji: r.emoji, users: [] };
      list.push(entry);
    }
    entry.users.push({ id: r.userId, name: displayName(r) });
    byMessage.set(r.messageId, list);
  }
  return rows.map((r) => ({
    ...r,
    reactions: byMessage.get(r.id) ?? [],
    attachments: files.get(r.id) ?? [],
  }));
}

/**
 * Stores a new message and links its attachments (files the sender uploaded for this conversation):
 * `insert` writes the message in one statement that also assigns its seq, answering its row, or null
 * when the statement's own guard refused. The files are linked in the same transaction, so a message
 * and its files commit together or not at all. Answers 'resend'
 * when the sender already stored this clientId: the failed statement undid itself (seq stays
 * gapless), and the caller answers the original.
 */
export async function insertMessage<R extends { id: string }>(
  ctx: AppContext,
  kind: MessageKind,
  link: {
    fileIds: readonly string[];
    senderId: string;
    /** The channel, or the ordered pair of a direct conversation. */
    conversation: { channelId: string } | { pair: readonly [string, string] };
  },
  insert: (db: Db) => Promise<R | null>,
): Promise<{ row: R; attachments: StoredFile[] } | null | 'resend'> {
  const write = async (db: Db) => {
    const row = await insert(db);
    if (!row) return null;
    const attachments = await attachFiles(db, { kind, ...link, messageId: row.id });
    return { row, attachments };
  };
  try {
    // The message and what its statement queues with it (the event outbox row of its notifications)
    // commit together in that one statement; files make it a transaction, so the message and its
    // files commit together or not at all. Without files a transaction would only add round trips.
    const stored =
      link.fileIds.length === 0 ? await write(ctx.db) : await ctx.db.transaction((tx) => write(tx));
    if (stored) ctx.metrics.messageSent(kind, stored.row.id);
    return stored;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return 'resend';
  }
}

/** The sender edits their message; deleted messages stay deleted. */
export async function editMessage<M extends CoreMessage>(
  ctx: AppContext,
  handle: MessageHandle<M>,
  callerId: string,
  content: string,
): Promise<M> {
  const message = await handle.load();
  if (message.sender.id !== callerId) throw forbidden(CHAT_MESSAGES.notYourMessage);
  if (message.deletedAt) throw badRequest(CHAT_MESSAGES.messageDeleted);
  await handle.change(sql`content = ${content}, edited_at = ${ctx.now().toISOString()}::timestamptz`);
  return handle.load();
}

/**
 * The sender, or a moderator, deletes a message: it stays in place (its seq, its thread) with no
 * content, no reactions and no files (rows and stored bytes). Deleting twice answers the deleted message.
 */
export async function deleteMessage<M extends CoreMessage>(
  ctx: AppContext,
  handle: MessageHandle<M>,
  callerId: string,
  mayModerate: boolean,
): Promise<M> {
  const message = await handle.load();
  if (message.sender.id !== callerId && !mayModerate) throw forbidden(CHAT_MESSAGES.cannotDelete);
  if (message.deletedAt) return message;
  const table = reactionTable(handle.kind);
  await ctx.db.delete(table).where(eq(table.messageId, message.id));
  await deleteFilesOfMessages(ctx, handle.kind, [message.id]);
  await handle.change(sql`content = '', deleted_at = ${ctx.now().toISOString()}::timestamptz`);
  return handle.load();
}

/**
 * Adds (`on`, within the cap of distinct emoji) or removes the caller's reaction. A no-op change
 * (a repeated PUT or DELETE) takes no new rev and answers the message as it is, `changed: false`.
 */
export async function setReaction<M extends CoreMessage>(
  ctx: AppContext,
  handle: MessageHandle<M>,
  userId: string,
  emoji: string,
  on: boolean,
): Promise<{ message: M; changed: boolean }> {
  const message = await handle.load();
  if (message.deletedAt) throw badRequest(CHAT_MESSAGES.messageDeleted);
  const table = reactionTable(handle.kind);
  const messageId = message.id;
  const changed = on
    ? await addReactionCapped(ctx.db, table, { messageId, userId, emoji })
    : (
        await ctx.db
          .delete(table)
          .where(and(eq(table.messageId, messageId), eq(table.userId, userId), eq(table.emoji, emoji)))
          .returning({ id: table.messageId })
      ).length > 0;
  if (!changed) return { message, changed: false };
  await handle.change(sql`edited_at = m.edited_at`);
  return { message: await handle.load(), changed: true };
}

/** Message ids are uuids: anything else is a message that does not exist. */
export const isMessageId = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
