import { and, desc, eq, gt, isNull, lte, max, min, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { channelMessages, users } from '../../db/schema.ts';

/**
 * Read-only views of a channel's messages for other features (summaries), so they never query the
 * chat tables themselves. The caller has already checked that the user may read the channel
 * (`loadChannelForUser`); these take a channel id that is known to be readable.
 */

export interface ChannelWindow {
  /** Messages with `from < created_at <= to`, deleted ones left out. */
  count: number;
  /**
   * seq of the oldest and newest message of the window, deleted ones included, and the highest rev
   * (0 when there are none). Seqs are gapless and every edit, deletion, reaction or reply gives a
   * message the channel's next rev, so equal values mean the window's content did not change.
   */
  firstSeq: number;
  lastSeq: number;
  maxRev: number;
}

export interface WindowMessage {
  seq: number;
  content: string;
  createdAt: Date;
  sender: { id: string; email: string; firstName: string; lastName: string };
}

const inWindow = (channelId: string, from: Date, to: Date) =>
  and(
    eq(channelMessages.channelId, channelId),
    gt(channelMessages.createdAt, from),
    lte(channelMessages.createdAt, to),
  );

export async function channelWindow(
  ctx: AppContext,
  channelId: string,
  from: Date,
  to: Date,
): Promise<ChannelWindow> {
  const [row] = await ctx.db
    .select({
      // Announcements ("Ada renamed the channel") are not conversation.
      n: sql<string>`count(*) filter (where ${channelMessages.deletedAt} is null and ${channelMessages.kind} = 'text')`,
      first: min(channelMessages.seq),
      last: max(channelMessages.seq),
      rev: max(channelMessages.rev),
    })
    .from(channelMessages)
    .where(inWindow(channelId, from, to));
  return {
    count: Number(row?.n ?? 0),
    firstSeq: Number(row?.first ?? 0),
    lastSeq: Number(row?.last ?? 0),
    maxRev: Number(row?.rev ?? 0),
  };
}

/**
 * The newest `limit` messages of the window (thread replies included, deleted ones and announcements
 * not), oldest first.
 */
export async function channelWindowMessages(
  ctx: AppContext,
  channelId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<WindowMessage[]> {
  const rows = await ctx.db
    .select({
      seq: channelMessages.seq,
      content: channelMessages.content,
      createdAt: channelMessages.createdAt,
      sender: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
    })
    .from(channelMessages)
    .innerJoin(users, eq(users.id, channelMessages.senderId))
    .where(
      and(inWindow(channelId, from, to), isNull(channelMessages.deletedAt), eq(channelMessages.kind, 'text')),
    )
    .orderBy(desc(channelMessages.seq))
    .limit(limit);
  return rows.reverse();
}

/**
 * Whether the channel holds the message `messageId` (not deleted): a task's link back to a message
 * (issue 20). The caller has checked that the user may read the channel.
 */
export async function channelHasMessage(ctx: AppContext, channelId: string, messageId: string) {
  const [row] = await ctx.db
    .select({ id: channelMessages.id })
    .from(channelMessages)
    .where(
      and(
        eq(channelMessages.channelId, channelId),
        eq(channelMessages.id, messageId),
        isNull(channelMessages.deletedAt),
      ),
    );
  return row !== undefined;
}
