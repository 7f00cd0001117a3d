import { SUMMARY_RATE_LIMIT, SUMMARY_RATE_WINDOW_MS } from '@cohort/shared/summaries';
import type { AppContext } from '../../context.ts';
import { takeRateLimit } from '../../http/rate-limit.ts';

/**
 * Counts one summary request of `userId` (both summary routes share the budget), or refuses it.
 * Like the login limit (decision 0004) the requests are rows in the database, so every node counts
 * the same ones, reserved atomically (http/rate-limit.ts). A refused request is not counted, so
 * waiting always frees a slot. Returns `null` when allowed, else the milliseconds until a slot frees up.
 */
export function takeSummaryRequest(ctx: AppContext, userId: string): Promise<number | null> {
  return takeRateLimit(ctx, `summary:${userId}`, SUMMARY_RATE_LIMIT, SUMMARY_RATE_WINDOW_MS);
}
