import { EMAIL_MESSAGES, RESET_PASSWORD_TTL_MINUTES } from '@cohort/shared/accounts';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { loginChallenges, recoveryCodes, users } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { takeRateLimit } from '../../http/rate-limit.ts';
import { createSession, revokeAllSessions, type SessionDevice } from '../../http/session.ts';
import {
  findAccountToken,
  issueAccountToken,
  retireAccountTokens,
  useAccountToken,
} from './account-tokens.ts';
import { assertStrongPassword, hashPassword } from './passwords.ts';

/** Reset mails per address per hour: beyond it the request is answered the same and nothing is sent. */
export const RESET_MAILS_PER_HOUR = 3;
/**
 * Forgot-password requests one client (IP) may make per hour, whatever the addresses: beyond it the
 * answer is the same and nothing is sent, so nobody can mail reset links to a long list of people.
 */
export const RESET_REQUESTS_PER_IP_PER_HOUR = 20;
/**
 * Every forgot-password request takes at least this long, known address or not: the work differs
 * (a token and a queued mail, or nothing), the answer and its timing do not.
 */
export const FORGOT_PASSWORD_MIN_MS = 400;

/**
 * "Forgot password": for an existing account, a single-use link (1 hour) is queued to its address.
 * The caller always gets the same answer after the same time, so the form reveals nothing about
 * which addresses have accounts. The mail is sent by the outbox afterwards.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, ip: string) {
  const started = performance.now();
  try {
    // Counted for unknown addresses too: the same work either way.
    const hour = 60 * 60 * 1000;
    const limited =
      (await takeRateLimit(ctx, `reset-ip:${ip}`, RESET_REQUESTS_PER_IP_PER_HOUR, hour)) !== null ||
      (await takeRateLimit(ctx, `reset:${email}`, RESET_MAILS_PER_HOUR, hour)) !== null;
    const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
    if (user && !limited) {
      const now = ctx.now();
      await ctx.db.transaction(async (tx) => {
        // Only the newest link works.
        await retireAccountTokens(tx, user.id, ['reset_password'], now);
        const token = await issueAccountToken(tx, {
          userId: user.id,
          kind: 'reset_password',
          email: user.email,
          ttlMs: RESET_PASSWORD_TTL_MINUTES * 60 * 1000,
          now,
        });
        await ctx.bus.emitStrict('passwordResetIssued', {
          db: tx,
          to: user.email,
          firstName: user.firstName,
          token,
        });
      });
      ctx.mail.wake();
    }
  } finally {
    const left = FORGOT_PASSWORD_MIN_MS - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
}

/**
 * A new password from the mailed link: the link is used up, every session of the account ends, and
 * the address counts as verified (the link proved it). Then the person is signed in — unless the
 * account has two-factor sign-in: a mailed link must not stand in for the second factor, so they
 * sign in at /login with the new password and a code.
 *
 * Nothing begun with the old password survives: a pending e-mail change (its link would move the
 * account to the address of whoever knew the password) and pending code steps of a sign-in. An
 * account that was never verified is treated as Google sign-in treats it: whoever set it up proved
 * nothing, so its two-factor secret and recovery codes go too, or they would lock the owner out.
 */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; password: string; remember: boolean; device: SessionDevice },
): Promise<{ token: string | null }> {
  const now = ctx.now();
  const row = await findAccountToken(ctx.db, 'reset_password', input.token, now);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (!user || user.email !== row.newEmail) throw badRequest(EMAIL_MESSAGES.linkInvalid, 'token');
  // Checked before the link is used up, so a weak choice can be corrected with the same link.
  await assertStrongPassword(input.password, [user.email, user.firstName, user.lastName], 'password');
  const passwordHash = await hashPassword(input.password);
  const claimed = user.emailVerifiedAt === null;
  await ctx.db.transaction(async (tx) => {
    if (!(await useAccountToken(tx, row.id, ctx.now()))) throw badRequest(EMAIL_MESSAGES.linkUsed, 'token');
    await tx
      .update(users)
      .set({
        passwordHash,
        emailVerifiedAt: user.emailVerifiedAt ?? now,
        ...(claimed ? { totpSecret: null, totpEnabledAt: null } : {}),
      })
      .where(eq(users.id, user.id));
    await retireAccountTokens(tx, user.id, ['reset_password', 'change_email'], now);
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, user.id));
    if (claimed) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
  });
  await revokeAllSessions(ctx, user.id);
  if (user.totpEnabledAt && !claimed) return { token: null };
  return { token: await createSession(ctx, user.id, input.remember, input.device) };
}
