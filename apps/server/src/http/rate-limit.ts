import { and, count, eq, gt, lte, min, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { rateLimitHits } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/**
 * Takes one slot of `key`'s budget (`limit` per `windowMs`), or refuses. The count and the insert run
 * in one transaction under an advisory lock on the key, so two requests racing for the last slot —
 * on one node or two — cannot both pass: the slot is reserved before the slow work it guards (a
 * mail). Returns null when allowed, else the milliseconds until a slot frees up.
 */
export async function takeRateLimit(
  ctx: AppContext,
  key: string,
  limit: number,
  windowMs: number,
  /** Slots taken at once (a batch of invitation mails); all or none. */
  cost = 1,
): Promise<number | null> {
  if (cost <= 0) return null;
  const now = ctx.now();
  const since = new Date(now.getTime() - windowMs);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    const [row] = await tx
      .select({ n: count(), oldest: min(rateLimitHits.at) })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.at, since)));
    if (cost > limit || (row?.n ?? 0) + cost > limit) {
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
      return Math.max(1000, oldest + windowMs - now.getTime());
    }
    await tx.insert(rateLimitHits).values(Array.from({ length: cost }, () => ({ key, at: now })));
    await tx.delete(rateLimitHits).where(and(eq(rateLimitHits.key, key), lte(rateLimitHits.at, since)));
    return null;
  });
}

/** `takeRateLimit` as a route guard: a 429 with `message` (and Retry-After) when the budget is spent. */
export async function requireRateLimit(
  ctx: AppContext,
  reply: { header(name: string, value: string): unknown },
  budget: { key: string; limit: number; windowMs: number; message: string },
): Promise<void> {
  const wait = await takeRateLimit(ctx, budget.key, budget.limit, budget.windowMs);
  if (wait === null) return;
  reply.header('retry-after', String(Math.ceil(wait / 1000)));
  throw new HttpError(429, budget.message);
}
