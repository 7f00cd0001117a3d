import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CHANNEL_MESSAGES } from '@cohort/shared/channels';
import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { FILE_MESSAGES, sanitizeFileName, THUMBNAIL_MAX_BYTES } from '@cohort/shared/files';
import { roleCan } from '@cohort/shared/permissions';
import { and, count, eq, isNull, sql, sum } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { files, taskAttachments } from '../../db/schema.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { loadRecipientForUser, orderedPair } from '../workspaces/peers.access.ts';
import { isUuid, loadChannelForUser } from '../workspaces/workspaces.access.ts';
import { type BoardFiles, removeStoredBytes } from './files.access.ts';
import type { FileRow } from './files.presenter.ts';
import { detectType, imageSize, SNIFF_BYTES } from './files.sniff.ts';
import { storageFor } from './files.storage.ts';
import { storedBytes } from './files.sweeper.ts';

/** The conversation a file is shared in, or the board of the card it goes on. */
export type FileTarget =
  | { kind: 'channel'; workspaceId: string; channelId: string }
  | { kind: 'direct'; pair: [string, string] }
  | { kind: 'board'; boardId: string; workspaceId: string | null };

/**
 * Where an upload goes, checked like a send: the caller must be able to write to the channel (read
 * it, and a role that may chat) or to the person; anything else is 404, as for what does not exist.
 */
export async function resolveTarget(
  ctx: AppContext,
  user: SessionUser,
  fields: Record<string, string>,
  boards?: BoardFiles,
): Promise<FileTarget> {
  const { workspaceName, channelId, dmWith, taskId } = fields;
  if (taskId && boards) return { kind: 'board', ...(await boards.uploadTarget(user, taskId)) };
  if (workspaceName && channelId) {
    const access = await loadChannelForUser(ctx, user, workspaceName, channelId);
    if (!roleCan(access.role, 'chat')) throw notFound(CHAT_MESSAGES.channelNotFound);
    // An archived channel is read-only: nothing is shared into it (docs/permissions.md).
    if (access.channel.archivedAt) throw conflict(CHANNEL_MESSAGES.archived);
    return { kind: 'channel', workspaceId: access.workspace.id, channelId: access.channel.id };
  }
  if (dmWith) {
    const receiver = await loadRecipientForUser(ctx, user, dmWith);
    return { kind: 'direct', pair: orderedPair(user.id, receiver.id) };
  }
  throw badRequest(FILE_MESSAGES.targetRequired);
}

export interface Spooled {
  path: string;
  size: number;
  head: Buffer;
}

const tooLarge = () => new HttpError(413, FILE_MESSAGES.tooLarge);

/**
 * Writes an upload stream to a spool file, keeping its first bytes for type detection. Streams that
 * the multipart limit cut short are refused (413) and leave nothing behind.
 */
export async function spool(ctx: AppContext, stream: Readable, maxBytes?: number): Promise<Spooled> {
  const dir = storageFor(ctx.config).spoolDir;
  await mkdir(dir, { recursive: true });
  const path = join(dir, randomUUID());
  const chunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const out = createWriteStream(path);
  try {
    await pipeline(
      stream,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (maxBytes !== undefined && size > maxBytes) throw tooLarge();
          if (headLength < SNIFF_BYTES) {
            chunks.push(chunk);
            headLength += chunk.length;
          }
          yield chunk;
        }
      },
      out,
    );
  } catch (err) {
    // The pipeline rejects as soon as a stream fails, while the file may still be opening: removing it
    // before the write stream has closed would leave the file it then creates behind.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(path, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
  if ((stream as Readable & { truncated?: boolean }).truncated) {
    await rm(path, { force: true });
    throw tooLarge();
  }
  return { path, size, head: Buffer.concat(chunks).subarray(0, SNIFF_BYTES) };
}

export async function discardSpooled(spooled: Spooled | undefined) {
  if (spooled) await rm(spooled.path, { force: true });
}

const THUMBNAIL_TYPES = new Set(['image/jpeg']);

/** Checks and stores a spooled upload (and its optional thumbnail); answers the new row. */
export async function storeUpload(
  ctx: AppContext,
  user: SessionUser,
  target: FileTarget,
  upload: {
    spooled: Spooled;
    name: string;
    thumbnail?: Spooled | undefined;
    durationMs?: number | undefined;
  },
): Promise<FileRow> {
  const { spooled, thumbnail } = upload;
  if (spooled.size === 0) throw badRequest(FILE_MESSAGES.empty, 'file');
  const type = detectType(spooled.head);
  const size = type.startsWith('image/') ? imageSize(type, spooled.head) : null;
  let thumbnailOk = false;
  if (thumbnail) {
    const thumbType = detectType(thumbnail.head);
    if (!THUMBNAIL_TYPES.has(thumbType) || thumbnail.size > THUMBNAIL_MAX_BYTES || thumbnail.size === 0) {
      throw badRequest(FILE_MESSAGES.thumbnailInvalid, 'thumbnail');
    }
    // Only images get thumbnails; for anything else the part is ignored.
    thumbnailOk = type.startsWith('image/');
  }
  const id = randomUUID();
  const storage = storageFor(ctx.config);
  const thumbnailKey = thumbnailOk && thumbnail ? `${id}.thumb` : null;
  const bytes = spooled.size + (thumbnailKey && thumbnail ? thumbnail.size : 0);
  const durationMs =
    type.startsWith('audio/') && upload.durationMs !== undefined && Number.isFinite(upload.durationMs)
      ? Math.max(0, Math.min(Math.round(upload.durationMs), 24 * 3600 * 1000))
      : null;
  // The quota is reserved with the row, under a lock per quota holder, before any byte is stored:
  // parallel uploads are counted one after another, never all against the same old total.
  // A card's files count against its workspace; a personal board's like direct-message files (the uploader's).
  const quotaWorkspace =
    target.kind === 'channel' ? target.workspaceId : target.kind === 'board' ? target.workspaceId : null;
  const holder = quotaWorkspace ? { workspaceId: quotaWorkspace } : { uploaderId: user.id };
  const row = await ctx.db.transaction(async (tx) => {
    const lockKey = 'workspaceId' in holder ? `storage:${holder.workspaceId}` : `storage:u:${user.id}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`);
    const quota = ctx.config.STORAGE_QUOTA_MB * 1024 * 1024;
    if ((await storedBytes(tx, holder)) + bytes > quota) {
      throw new HttpError(413, quotaExceeded(ctx.config.STORAGE_QUOTA_MB, quotaWorkspace !== null));
    }
    const [inserted] = await tx
      .insert(files)
      .values({
        id,
        uploaderId: user.id,
        ...(target.kind === 'channel'
          ? { workspaceId: target.workspaceId, channelId: target.channelId }
          : target.kind === 'board'
            ? { workspaceId: target.workspaceId, boardId: target.boardId }
            : { dmUserA: target.pair[0], dmUserB: target.pair[1] }),
        name: sanitizeFileName(upload.name),
        size: spooled.size,
        type,
        storageKey: id,
        thumbnailKey,
        width: size?.width ?? null,
        height: size?.height ?? null,
        durationMs,
        createdAt: ctx.now(),
      })
      .returning();
    if (!inserted) throw new Error('file insert returned no row');
    return inserted;
  });
  try {
    await storage.put(id, spooled.path, spooled.size, type);
    if (thumbnailKey && thumbnail) {
      await storage.put(thumbnailKey, thumbnail.path, thumbnail.size, detectType(thumbnail.head));
    }
  } catch (err) {
    // The row goes and its keys are queued: the sweeper removes whatever part was stored.
    await ctx.db.delete(files).where(eq(files.id, id));
    throw err;
  }
  return row;
}

function quotaExceeded(mb: number, workspace: boolean) {
  const amount = mb >= 1024 ? `${+(mb / 1024).toFixed(1)} GiB` : `${mb} MiB`;
  return workspace
    ? `This workspace has used its ${amount} of file storage. Delete some files or ask an admin.`
    : `Your direct-message files have used their ${amount} of storage. Delete some files first.`;
}

const fileNotFound = () => notFound(FILE_MESSAGES.fileNotFound);

/**
 * A file for someone who may read it: its uploader while no message carries it; once attached,
 * whoever can read the conversation (channel readers; the two people of a direct conversation).
 * Everyone else, and ids that do not exist, get the same 404.
 */
export async function loadFileForUser(
  ctx: AppContext,
  user: SessionUser,
  id: string,
  boards?: BoardFiles,
): Promise<FileRow> {
  if (!isUuid(id)) throw fileNotFound();
  const [row] = await ctx.db.select().from(files).where(eq(files.id, id)).limit(1);
  if (!row) throw fileNotFound();
  if (row.boardId) {
    // A card's file: its board's readers once a task carries it, only its uploader before.
    const [link] = await ctx.db
      .select({ taskId: taskAttachments.taskId })
      .from(taskAttachments)
      .where(eq(taskAttachments.fileId, row.id))
      .limit(1);
    if (!link) {
      if (row.uploaderId !== user.id) throw fileNotFound();
      return row;
    }
    if (boards && (await boards.canRead(user, row.boardId))) return row;
    throw fileNotFound();
  }
  const attached = row.channelMessageId !== null || row.directMessageId !== null;
  if (!attached) {
    if (row.uploaderId !== user.id) throw fileNotFound();
    return row;
  }
  if (row.channelId && row.workspaceId) {
    try {
      await loadChannelForUser(ctx, user, row.workspaceId, row.channelId);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) throw fileNotFound();
      throw err;
    }
    return row;
  }
  if (row.dmUserA === user.id || row.dmUserB === user.id) return row;
  throw fileNotFound();
}

/** The stored bytes of a file (or its thumbnail), or 404 when the storage lost them. */
export async function openFile(ctx: AppContext, key: string) {
  const stream = await storageFor(ctx.config).get(key);
  if (!stream) throw fileNotFound();
  return stream;
}

/**
 * The uploader takes back a file no message carries yet (removed from the composer, or replaced by
 * its annotated copy). Anyone else, and attached files, get 404: those go with their message.
 */
export async function deleteUnattachedFile(ctx: AppContext, user: SessionUser, id: string): Promise<void> {
  if (!isUuid(id)) throw fileNotFound();
  const removed = await ctx.db
    .delete(files)
    .where(
      and(
        eq(files.id, id),
        eq(files.uploaderId, user.id),
        isNull(files.channelMessageId),
        isNull(files.directMessageId),
        sql`not exists (select 1 from ${taskAttachments} ta where ta.file_id = ${files.id})`,
      ),
    )
    .returning();
  if (removed.length === 0) throw fileNotFound();
  await removeStoredBytes(ctx, removed);
}

/** What the workspace's files take (attached or not), and the quota they count against. */
export async function workspaceStorage(ctx: AppContext, workspaceId: string) {
  const [row] = await ctx.db
    .select({ bytes: sum(files.size), files: count() })
    .from(files)
    .where(and(eq(files.workspaceId, workspaceId)));
  return {
    bytes: Number(row?.bytes ?? 0),
    files: Number(row?.files ?? 0),
    quotaBytes: ctx.config.STORAGE_QUOTA_MB * 1024 * 1024,
  };
}
