import { SUMMARY_RATE_LIMIT, SUMMARY_RATE_WINDOW_MS } from '@cohort/shared/summaries';
import { and, count, eq, gt, lte, min } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rateLimitHits } from '../../db/schema.ts';

/**
 * Counts one summary request of `userId` (both summary routes share the budget), or refuses it.
 * Like the login limit (decision 0004) the requests are rows in the database, so every node counts
 * the same ones. A refused request is not counted, so waiting always frees a slot. Two requests
 * racing on the 10th slot from two nodes may both pass: an approximation that costs no lock.
 * Returns `null` when allowed, else the milliseconds until a slot frees up.
 */
export async function takeSummaryRequest(ctx: AppContext, userId: string): Promise<number | null> {
  const key = `summary:${userId}`;
  const now = ctx.now();
  const since = new Date(now.getTime() - SUMMARY_RATE_WINDOW_MS);
  const [row] = await ctx.db
    .select({ n: count(), oldest: min(rateLimitHits.at) })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.at, since)));
  if (row && row.n >= SUMMARY_RATE_LIMIT) {
    const oldest = row.oldest ? new Date(row.oldest).getTime() : now.getTime();
    return Math.max(1000, oldest + SUMMARY_RATE_WINDOW_MS - now.getTime());
  }
  await ctx.db.insert(rateLimitHits).values({ key, at: now });
  // This user's rows that aged out are useless; trimming here needs no background job.
  await ctx.db.delete(rateLimitHits).where(and(eq(rateLimitHits.key, key), lte(rateLimitHits.at, since)));
  return null;
}
