import { and, count, gt, inArray, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { loginFailures } from '../../db/schema.ts';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILED_LOGINS = 10;

const keys = (ip: string, email: string) => [`ip:${ip}`, `email:${email}`];

/** True when the account or the IP has failed too often in the window: every attempt is then refused. */
export async function isLoginBlocked(ctx: AppContext, ip: string, email: string): Promise<boolean> {
  const since = new Date(ctx.now().getTime() - LOGIN_WINDOW_MS);
  const rows = await ctx.db
    .select({ key: loginFailures.key, n: count() })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys(ip, email)), gt(loginFailures.at, since)))
    .groupBy(loginFailures.key);
  return rows.some((r) => r.n >= MAX_FAILED_LOGINS);
}

export async function recordLoginFailure(ctx: AppContext, ip: string, email: string) {
  const at = ctx.now();
  await ctx.db.insert(loginFailures).values(keys(ip, email).map((key) => ({ key, at })));
  // Old rows are useless; trimming here keeps the table small without a background job.
  await ctx.db.delete(loginFailures).where(lt(loginFailures.at, new Date(at.getTime() - LOGIN_WINDOW_MS)));
}
