import { FILE_MESSAGES, type StoredFile } from '@cohort/shared/files';
import { and, asc, eq, inArray, isNull, notExists } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { anyUuidPlaceholder, uuidArrayLiteral } from '../../db/any-uuid.ts';
import type { Db } from '../../db/client.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { fileDeletions, files, taskAttachments } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
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

/** The files of the messages `ids`, oldest first, per conversation kind. */
const filesOfQuery = (kind: MessageKind) =>
  preparedQuery(`files_of_${kind}_messages`, (db) =>
    db
      .select()
      .from(files)
      .where(anyUuidPlaceholder(linkColumn(kind), 'ids'))
      .orderBy(asc(files.createdAt), asc(files.id)),
  );
const filesOf = { channel: filesOfQuery('channel'), direct: filesOfQuery('direct') };

/** The attachments of each of these messages, in upload order. */
export async function attachmentsOf(
  ctx: AppContext,
  kind: MessageKind,
  messageIds: readonly string[],
): Promise<Map<string, StoredFile[]>> {
  const byMessage = new Map<string, StoredFile[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await filesOf[kind](ctx.db).execute({ ids: uuidArrayLiteral(messageIds) });
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

// ---------------------------------------------------------------------------------------------------
// Card attachments (issue 20). The tasks feature authorizes (edit permission on the board) and calls
// these; the link table is this feature's, so the sweeper and the download check need no tasks code.

/**
 * Puts an uploaded file on a task: it must be the caller's upload for this task's board and carried
 * by no task yet (404 Attachment not found otherwise, as for a file that does not exist).
 */
export async function attachFileToTask(
  db: Db,
  p: { fileId: string; taskId: string; boardId: string; userId: string; now: Date },
): Promise<void> {
  const [row] = await db
    .select({ id: files.id })
    .from(files)
    .where(
      and(
        eq(files.id, p.fileId),
        eq(files.uploaderId, p.userId),
        eq(files.boardId, p.boardId),
        notExists(db.select().from(taskAttachments).where(eq(taskAttachments.fileId, files.id))),
      ),
    )
    .for('update');
  if (!row) throw notFound(FILE_MESSAGES.attachmentNotFound);
  await db
    .insert(taskAttachments)
    .values({ taskId: p.taskId, fileId: p.fileId, createdBy: p.userId, createdAt: p.now });
}

/** Takes a file off a task and deletes it (row now, bytes after); 404 when the task does not carry it. */
export async function deleteTaskFile(ctx: AppContext, taskId: string, fileId: string): Promise<void> {
  const link = await ctx.db
    .select({ fileId: taskAttachments.fileId })
    .from(taskAttachments)
    .where(and(eq(taskAttachments.taskId, taskId), eq(taskAttachments.fileId, fileId)));
  if (link.length === 0) throw notFound(FILE_MESSAGES.fileNotFound);
  const removed = await ctx.db.delete(files).where(eq(files.id, fileId)).returning();
  await removeStoredBytes(ctx, removed);
}

export interface TaskFile {
  taskId: string;
  file: StoredFile;
  createdAt: Date;
}

const filesOfTasksQuery = preparedQuery('files_of_tasks', (db) =>
  db
    .select({ taskId: taskAttachments.taskId, createdAt: taskAttachments.createdAt, file: files })
    .from(taskAttachments)
    .innerJoin(files, eq(files.id, taskAttachments.fileId))
    .where(anyUuidPlaceholder(taskAttachments.taskId, 'ids'))
    .orderBy(asc(taskAttachments.createdAt), asc(files.id)),
);

/** The files on each of these tasks, oldest first. */
export async function filesOfTasks(ctx: AppContext, taskIds: readonly string[]): Promise<TaskFile[]> {
  if (taskIds.length === 0) return [];
  const rows = await filesOfTasksQuery(ctx.db).execute({ ids: uuidArrayLiteral(taskIds) });
  return rows.map((r) => ({ taskId: r.taskId, createdAt: r.createdAt, file: presentFile(r.file) }));
}

/**
 * How files reach the boards of the tasks feature without importing it (tasks imports files): the
 * app passes the tasks feature's implementation in (app.ts). Both answer 404 for a task or board the
 * user may not see.
 */
export interface BoardFiles {
  /** The board of task `taskId` when the user may put files on it (edit permission), else 404. */
  uploadTarget(user: SessionUser, taskId: string): Promise<{ boardId: string; workspaceId: string | null }>;
  /** Whether the user may read board `boardId`. */
  canRead(user: SessionUser, boardId: string): Promise<boolean>;
}
