import { FILE_MESSAGES, type StoredFile } from '@cohort/shared/files';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { anyUuid } from '../../db/any-uuid.ts';
import type { Db } from '../../db/client.ts';
import { fileDeletions, files } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { type FileRow, presentFile } from './files.presenter.ts';
import { storageFor } from './files.storage.ts';

/**
 * What other features (chat, direct messages, and message deletion) use of files. Attaching runs in
 * the caller's transaction, so a message and its attachments commit together.
 */

export type MessageKind = 'channel' | 'direct';

const linkColumn = (kind: MessageKind) =>
  kind === 'channel' ? files.channelMessageId : files.directMessageId;

/**
 * Links uploaded files to a just-inserted message. Each file must be the sender's, uploaded for this
 * conversation, and not on a message yet; otherwise the whole send fails (400 Attachment not found)
 * and the caller's transaction rolls the message back.
 */
export async function attachFiles(
  db: Db,
  p: {
    kind: MessageKind;
    fileIds: readonly string[];
    senderId: string;
    messageId: string;
    /** The channel, or the ordered pair of a direct conversation. */
    conversation: { channelId: string } | { pair: readonly [string, string] };
  },
): Promise<StoredFile[]> {
  const ids = [...new Set(p.fileIds)];
  if (ids.length === 0) return [];
  const where = [
    inArray(files.id, ids),
    eq(files.uploaderId, p.senderId),
    isNull(files.channelMessageId),
    isNull(files.directMessageId),
  ];
  if ('channelId' in p.conversation) where.push(eq(files.channelId, p.conversation.channelId));
  else where.push(eq(files.dmUserA, p.conversation.pair[0]), eq(files.dmUserB, p.conversation.pair[1]));
  const set = p.kind === 'channel' ? { channelMessageId: p.messageId } : { directMessageId: p.messageId };
  const rows = await db
    .update(files)
    .set(set)
    .where(and(...where))
    .returning();
  if (rows.length !== ids.length) throw badRequest(FILE_MESSAGES.attachmentNotFound, 'attachments');
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)).map(presentFile);
}

/** The attachments of each of these messages, in upload order. */
export async function attachmentsOf(
  ctx: AppContext,
  kind: MessageKind,
  messageIds: readonly string[],
): Promise<Map<string, StoredFile[]>> {
  const byMessage = new Map<string, StoredFile[]>();
  if (messageIds.length === 0) return byMessage;
  const column = linkColumn(kind);
  const rows = await ctx.db
    .select()
    .from(files)
    .where(anyUuid(column, messageIds))
    .orderBy(asc(files.createdAt), asc(files.id));
  for (const row of rows) {
    const messageId = (kind === 'channel' ? row.channelMessageId : row.directMessageId) as string;
    const list = byMessage.get(messageId) ?? [];
    list.push(presentFile(row));
    byMessage.set(messageId, list);
  }
  return byMessage;
}

/**
 * Deleting a message deletes its files: call this BEFORE deleting the message rows (the link is
 * cleared when a message goes). Rows go first, then the stored bytes; a storage failure is logged
 * (the bytes are unreachable without their row either way).
 */
export async function deleteFilesOfMessages(
  ctx: AppContext,
  kind: MessageKind,
  messageIds: readonly string[],
): Promise<number> {
  if (messageIds.length === 0) return 0;
  const removed = await ctx.db
    .delete(files)
    .where(inArray(linkColumn(kind), [...messageIds]))
    .returning();
  await removeStoredBytes(ctx, removed);
  return removed.length;
}

export async function removeStoredBytes(ctx: AppContext, rows: readonly FileRow[]) {
  const storage = storageFor(ctx.config);
  const done: string[] = [];
  for (const row of rows) {
    for (const key of [row.storageKey, row.thumbnailKey]) {
      if (!key) continue;
      try {
        await storage.delete(key);
        done.push(key);
      } catch (err) {
        // Still queued in file_deletions (by the trigger): the sweeper retries.
        ctx.log.error({ err, key }, 'deleting a stored file failed');
      }
    }
  }
  if (done.length) await ctx.db.delete(fileDeletions).where(inArray(fileDeletions.storageKey, done));
}
