import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { fileDeletions, files, taskAttachments } from '../../db/schema.ts';
import { storageFor } from './files.storage.ts';

/** An upload no message carries after this long was abandoned (a closed tab, a script): it goes. */
export const UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const BATCH = 200;

/** Deletes abandoned uploads (their keys land in file_deletions through the trigger). */
export async function sweepUnattachedUploads(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - UNATTACHED_TTL_MS);
  const removed = await ctx.db
    .delete(files)
    .where(
      inArray(
        files.id,
        ctx.db
          .select({ id: files.id })
          .from(files)
          .where(
            and(
              isNull(files.channelMessageId),
              isNull(files.directMessageId),
              // A card's file is attached while a task carries it; once its task is gone it goes too.
              sql`not exists (select 1 from ${taskAttachments} ta where ta.file_id = ${files.id})`,
              lt(files.createdAt, cutoff),
            ),
          )
          .orderBy(asc(files.createdAt))
          .limit(BATCH),
      ),
    )
    .returning({ id: files.id });
  return removed.length;
}

/**
 * Removes the stored bytes of deleted files rows. A batch is claimed by deleting its queue rows (SKIP
 * LOCKED, so nodes sweeping at once split the work) and the bytes are deleted outside any transaction
 * (a slow storage must not hold the database); a key whose delete fails is queued again.
 */
export async function removeDeletedBytes(ctx: AppContext): Promise<number> {
  const storage = storageFor(ctx.config);
  let removed = 0;
  for (;;) {
    const batch = await ctx.db
      .delete(fileDeletions)
      .where(
        inArray(
          fileDeletions.id,
          ctx.db
            .select({ id: fileDeletions.id })
            .from(fileDeletions)
            .orderBy(asc(fileDeletions.id))
            .limit(BATCH)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning({ storageKey: fileDeletions.storageKey });
    const failed: string[] = [];
    for (const { storageKey } of batch) {
      try {
        await storage.delete(storageKey);
        removed++;
      } catch (err) {
        ctx.log.warn({ err, key: storageKey }, 'deleting stored bytes failed; will retry');
        failed.push(storageKey);
      }
    }
    if (failed.length) {
      await ctx.db.insert(fileDeletions).values(failed.map((storageKey) => ({ storageKey })));
      return removed;
    }
    if (batch.length < BATCH) return removed;
  }
}

/** One pass: abandoned uploads first, then every queued deletion. */
export async function sweepFiles(ctx: AppContext) {
  let uploads = 0;
  for (let n = await sweepUnattachedUploads(ctx); n > 0; n = await sweepUnattachedUploads(ctx)) uploads += n;
  const bytes = await removeDeletedBytes(ctx);
  return { uploads, bytes };
}

/** Runs the sweep now and then every ten minutes; `kick()` runs it soon (after a large delete). */
export function startFileSweeper(ctx: AppContext) {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = sweepFiles(ctx)
      .catch((err) => ctx.log.error({ err }, 'file sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, SWEEP_EVERY_MS);
  timer.unref();
  const first = setTimeout(run, 1000);
  first.unref();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}

/** Bytes a quota holder (a workspace, or the uploader for direct messages) stores now. */
export async function storedBytes(
  db: AppContext['db'],
  holder: { workspaceId: string } | { uploaderId: string },
) {
  const where =
    'workspaceId' in holder
      ? eq(files.workspaceId, holder.workspaceId)
      : and(eq(files.uploaderId, holder.uploaderId), isNull(files.workspaceId));
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(where);
  return Number(row?.bytes ?? 0);
}
