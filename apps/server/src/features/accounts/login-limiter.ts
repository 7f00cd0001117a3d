import { ACCOUNT_MESSAGES } from '@cohort/shared/accounts';
import { and, count, gt, inArray, lt, max, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { loginFailures } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * The password (and second-factor) throttle, docs/security.md "Sign-in throttling". Every check is
 * reserved BEFORE the slow argon2 verification, atomically (one transaction under a per-account and
 * per-address lock), and released only when it succeeds; so a burst of parallel guesses is counted
 * as it arrives, not after the checks finish.
 *
 * Within LOGIN_WINDOW_MS:
 * - one account from one address: MAX_FAILED_LOGINS checks, then refused (429);
 * - one address over all accounts: MAX_FAILED_PER_ADDRESS, then refused;
 * - one account over all addresses: above ACCOUNT_CEILING the account is slowed, not blocked: one
 *   check per ACCOUNT_SLOW_INTERVAL_MS. An attacker spread over many addresses cannot lock the owner
 *   out, and the owner signing in from an address without failures is never refused below it.
 */

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILED_LOGINS = 10;
export const MAX_FAILED_PER_ADDRESS = 50;
export const ACCOUNT_CEILING = 100;
export const ACCOUNT_SLOW_INTERVAL_MS = 30 * 1000;

const keysOf = (ip: string, email: string) => {
  const account = email.trim().toLowerCase();
  return { pair: `pair:${account}|${ip}`, address: `ip:${ip}`, account: `account:${account}` };
};

export interface LoginAttempt {
  ids: number[];
}

/**
 * Counts this check against every limit, or refuses it (429) without counting. The reservation is a
 * failure until `releaseLoginAttempt` says the check succeeded.
 */
export async function reserveLoginAttempt(ctx: AppContext, ip: string, email: string): Promise<LoginAttempt> {
  const keys = keysOf(ip, email);
  const now = ctx.now();
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  return ctx.db.transaction(async (tx) => {
    // Always account first, then address: two attempts never wait on each other in a cycle.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${keys.account}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${keys.address}))`);
    const rows = await tx
      .select({ key: loginFailures.key, n: count(), last: max(loginFailures.at) })
      .from(loginFailures)
      .where(and(inArray(loginFailures.key, Object.values(keys)), gt(loginFailures.at, since)))
      .groupBy(loginFailures.key);
    const of = (key: string) => rows.find((r) => r.key === key);
    if (
      (of(keys.pair)?.n ?? 0) >= MAX_FAILED_LOGINS ||
      (of(keys.address)?.n ?? 0) >= MAX_FAILED_PER_ADDRESS
    ) {
      throw new HttpError(429, ACCOUNT_MESSAGES.tooManyAttempts);
    }
    const account = of(keys.account);
    if (account && account.n >= ACCOUNT_CEILING && account.last) {
      const last = new Date(account.last).getTime();
      if (now.getTime() - last < ACCOUNT_SLOW_INTERVAL_MS) {
        throw new HttpError(429, ACCOUNT_MESSAGES.signInSlowed);
      }
    }
    const inserted = await tx
      .insert(loginFailures)
      .values(Object.values(keys).map((key) => ({ key, at: now })))
      .returning({ id: loginFailures.id });
    return { ids: inserted.map((r) => r.id) };
  });
}

/** The reserved check succeeded: it was not a failure. Old rows are trimmed here too. */
export async function releaseLoginAttempt(ctx: AppContext, attempt: LoginAttempt) {
  if (attempt.ids.length) await ctx.db.delete(loginFailures).where(inArray(loginFailures.id, attempt.ids));
  await ctx.db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(ctx.now().getTime() - LOGIN_WINDOW_MS)));
}

/**
 * Runs one secret check (a password, a one-time code) under a reservation: refused at once over the
 * limits; counted as a failure unless `check` answers true.
 */
export async function throttledCheck(
  ctx: AppContext,
  who: { ip: string; email: string },
  check: () => Promise<boolean>,
): Promise<boolean> {
  const attempt = await reserveLoginAttempt(ctx, who.ip, who.email);
  const ok = await check();
  if (ok) await releaseLoginAttempt(ctx, attempt);
  return ok;
}
