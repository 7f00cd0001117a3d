import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { readMarks } from '../../db/schema.ts';

/** What other features may ask the reads feature (notifications skip muted channels). */

/** Of `userIds`, those who muted the channel (or conversation) `conversationId`. */
export async function mutedUserIds(
  ctx: AppContext,
  conversationId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await ctx.db
    .select({ userId: readMarks.userId })
    .from(readMarks)
    .where(
      and(
        eq(readMarks.conversationId, conversationId),
        inArray(readMarks.userId, [...userIds]),
        eq(readMarks.muted, true),
      ),
    );
  return new Set(rows.map((r) => r.userId));
}
