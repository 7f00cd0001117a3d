import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { PIN_MESSAGES, PINS_PER_CHANNEL_MAX } from '@cohort/shared/pins';
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { channelMessages, channelPins, channels } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { type StoredChannelMessage, selectChannelMessages, withReactions } from './chat.service.ts';

/**
 * Pinned messages of a channel (issue 22). A pin is a `channel_pins` row; pinning and unpinning also
 * give the message the channel's next rev, in the same transaction, so a client that backfills
 * `changedAfter=` after a reconnect sees the marker change like an edit (docs/realtime.md).
 */

/** Thrown inside the transaction when there is nothing to change: rolls the rev bump back. */
class Unchanged extends Error {}

/**
 * Pins (`on`) or unpins the message. The channel row is locked first (the rev bump), so pins of one
 * channel are counted and inserted one at a time and the cap holds under concurrent pins. Answers
 * whether anything changed (a repeated pin or unpin changes nothing and takes no rev) and the
 * channel's number of pins after it. The caller has loaded the message in this channel.
 */
export async function setPin(
  ctx: AppContext,
  channelId: string,
  messageId: string,
  userId: string,
  on: boolean,
): Promise<{ changed: boolean; count: number }> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const [bumped] = rowsOf<{ last_rev: number | string }>(
        await tx.execute(
          sql`update ${channels} set last_rev = last_rev + 1 where id = ${channelId}::uuid returning last_rev`,
        ),
      );
      if (!bumped) throw notFound(CHAT_MESSAGES.channelNotFound);
      const rev = Number(bumped.last_rev);
      if (on) {
        const [existing] = await tx
          .select({ id: channelPins.messageId })
          .from(channelPins)
          .where(eq(channelPins.messageId, messageId));
        if (existing) throw new Unchanged();
        if ((await countIn(tx, channelId)) >= PINS_PER_CHANNEL_MAX) throw conflict(PIN_MESSAGES.tooMany);
        // Only a live message of this channel (it may have been deleted since it was loaded).
        const touched = await tx
          .update(channelMessages)
          .set({ rev })
          .where(
            and(
              eq(channelMessages.id, messageId),
              eq(channelMessages.channelId, channelId),
              isNull(channelMessages.deletedAt),
              eq(channelMessages.kind, 'text'),
            ),
          )
          .returning({ id: channelMessages.id });
        if (touched.length === 0) throw notFound(CHAT_MESSAGES.messageNotFound);
        await tx.insert(channelPins).values({ messageId, channelId, pinnedBy: userId, pinnedAt: ctx.now() });
      } else {
        const removed = await tx
          .delete(channelPins)
          .where(and(eq(channelPins.messageId, messageId), eq(channelPins.channelId, channelId)))
          .returning({ id: channelPins.messageId });
        if (removed.length === 0) throw new Unchanged();
        await tx.update(channelMessages).set({ rev }).where(eq(channelMessages.id, messageId));
      }
      return { changed: true, count: await countIn(tx, channelId) };
    });
  } catch (err) {
    if (err instanceof Unchanged) return { changed: false, count: await countIn(ctx.db, channelId) };
    throw err;
  }
}

type Queryable = Pick<Db, 'select'>;

async function countIn(db: Queryable, channelId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(channelPins)
    .where(eq(channelPins.channelId, channelId));
  return Number(row?.n ?? 0);
}

/** The channel's number of pins. */
export const pinCount = (ctx: AppContext, channelId: string) => countIn(ctx.db, channelId);

/**
 * A deleted message keeps no pin (the presenter already hides it; this removes the row). Answers
 * whether there was one.
 */
export async function unpinDeleted(ctx: AppContext, channelId: string, messageId: string): Promise<boolean> {
  const removed = await ctx.db
    .delete(channelPins)
    .where(and(eq(channelPins.messageId, messageId), eq(channelPins.channelId, channelId)))
    .returning({ id: channelPins.messageId });
  return removed.length > 0;
}

/** The channel's pinned messages, newest pin first (deleted messages have none). */
export async function listPins(ctx: AppContext, channelId: string): Promise<StoredChannelMessage[]> {
  const rows = await selectChannelMessages(ctx)
    .where(
      and(
        eq(channelMessages.channelId, channelId),
        isNotNull(channelPins.messageId),
        isNull(channelMessages.deletedAt),
      ),
    )
    .orderBy(desc(channelPins.pinnedAt), desc(channelMessages.seq))
    .limit(PINS_PER_CHANNEL_MAX);
  return withReactions(ctx, rows);
}
