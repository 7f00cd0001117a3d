import { CHAT_MESSAGES, MAX_DISTINCT_REACTIONS } from '@cohort/shared/chat';
import { and, countDistinct, eq, sql } from 'drizzle-orm';
import { HttpError } from '../http/errors.ts';
import type { Db } from './client.ts';
import type { channelMessageReactions, directMessageReactions } from './schema.ts';

type ReactionTable = typeof channelMessageReactions | typeof directMessageReactions;

/**
 * Adds one person's reaction unless it would be the message's (MAX_DISTINCT_REACTIONS + 1)th
 * different emoji (409). Counted and inserted under a lock per message, so parallel requests cannot
 * all pass the count. Answers whether a row was added (false: that person had reacted so already).
 */
export async function addReactionCapped(
  db: Db,
  table: ReactionTable,
  row: { messageId: string; userId: string; emoji: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`reactions:${row.messageId}`}))`);
    const [present] = await tx
      .select({ n: countDistinct(table.emoji) })
      .from(table)
      .where(eq(table.messageId, row.messageId));
    const [sameEmoji] = await tx
      .select({ n: countDistinct(table.userId) })
      .from(table)
      .where(and(eq(table.messageId, row.messageId), eq(table.emoji, row.emoji)));
    if ((sameEmoji?.n ?? 0) === 0 && (present?.n ?? 0) >= MAX_DISTINCT_REACTIONS) {
      throw new HttpError(409, CHAT_MESSAGES.tooManyReactions);
    }
    const added = await tx.insert(table).values(row).onConflictDoNothing().returning({ id: table.messageId });
    return added.length > 0;
  });
}
