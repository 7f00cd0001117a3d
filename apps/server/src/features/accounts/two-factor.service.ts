import { randomBytes } from 'node:crypto';
import { SECURITY_MESSAGES, type TwoFactorDisableBody } from '@cohort/shared/security';
import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { loginChallenges, rateLimitHits, recoveryCodes, users } from '../../db/schema.ts';
import { badRequest, conflict, HttpError, unauthorized } from '../../http/errors.ts';
import { createSession, hashToken, type SessionDevice, type SessionUser } from '../../http/session.ts';
import { workspacesRequiringTwoFactorAdministeredBy } from '../workspaces/workspaces.access.ts';
import { throttledCheck } from './login-limiter.ts';
import { verifyPassword } from './passwords.ts';
import {
  asTotpCode,
  hashRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  qrCodeDataUrl,
  TOTP_PERIOD_SECONDS,
} from './two-factor.codes.ts';
import { authorizeDisable, authorizeEnable, authorizeSetup } from './two-factor.policy.ts';

/** How long the code step of a sign-in waits for its code. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one sign-in may try before the password must be given again. */
export const MAX_CHALLENGE_ATTEMPTS = 5;

async function loadState(ctx: AppContext, userId: string) {
  const [row] = await ctx.db
    .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw unauthorized();
  return row;
}

export async function getTwoFactorStatus(ctx: AppContext, user: SessionUser) {
  const state = await loadState(ctx, user.id);
  const [left] = await ctx.db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
  return {
    enabled: state.enabledAt !== null,
    recoveryCodesLeft: state.enabledAt ? Number(left?.n ?? 0) : 0,
    hasPassword: state.passwordHash !== null,
  };
}

// -- Using a code ----------------------------------------------------------------------------------

/**
 * The last TOTP step used by each account, so a code works once. It only has to outlive the ±1
 * step window (a code older than that fails anyway), so it is kept as a row of the keyed
 * timestamp table `rate_limit_hits` (`at` = the start of the step) rather than a column of users.
 */
const stepKey = (userId: string) => `totp-step:${userId}`;
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/**
 * Checks an authenticator code against the account's secret (the confirmed one, or the pending one
 * of a setup) and, when it matches a step after the last one used, records that step and runs
 * `then` in the same transaction. The user row is locked first, so two requests racing with one
 * code cannot both pass.
 */
async function consumeTotp(
  ctx: AppContext,
  userId: string,
  code: string,
  expect: 'enabled' | 'pending',
  then?: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!row?.secret || (expect === 'enabled') !== (row.enabledAt !== null)) return false;
    const key = stepKey(userId);
    const [last] = await tx
      .select({ at: rateLimitHits.at })
      .from(rateLimitHits)
      .where(eq(rateLimitHits.key, key))
      .orderBy(desc(rateLimitHits.at))
      .limit(1);
    const afterStep = last ? Math.floor(last.at.getTime() / STEP_MS) : null;
    const step = await matchTotp(row.secret, code, ctx.now(), afterStep);
    if (step === null) return false;
    await tx.delete(rateLimitHits).where(eq(rateLimitHits.key, key));
    await tx.insert(rateLimitHits).values({ key, at: new Date(step * STEP_MS) });
    await then?.(tx);
    return true;
  });
}

/** Marks one unused recovery code of the account used; false when there is none that matches. */
async function consumeRecoveryCode(ctx: AppContext, userId: string, input: string): Promise<boolean> {
  const [used] = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: ctx.now() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(input)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used !== undefined;
}

/** The second factor of an account with 2FA on: a 6-digit code, or else one of its recovery codes. */
function consumeSecondFactor(ctx: AppContext, userId: string, input: string): Promise<boolean> {
  const totp = asTotpCode(input);
  return totp ? consumeTotp(ctx, userId, totp, 'enabled') : consumeRecoveryCode(ctx, userId, input);
}

// -- Turning it on and off -------------------------------------------------------------------------

/** Stores a new pending secret (replacing an unconfirmed one) and returns what the app scans. */
export async function startSetup(ctx: AppContext, user: SessionUser) {
  authorizeSetup(await loadState(ctx, user.id));
  const secret = newTotpSecret();
  const [stored] = await ctx.db
    .update(users)
    .set({ totpSecret: secret })
    // Still off: a concurrent enable must not have its confirmed secret replaced.
    .where(and(eq(users.id, user.id), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  if (!stored) throw conflict(SECURITY_MESSAGES.alreadyEnabled);
  const uri = otpauthUri(user.email, secret);
  return { secret, otpauthUri: uri, qrCode: await qrCodeDataUrl(uri) };
}

/**
 * Confirms the pending secret with a first code: 2FA is on from here, and ten new recovery codes
 * replace any old ones. The codes are returned once; only their hashes are kept.
 */
export async function enableTwoFactor(ctx: AppContext, user: SessionUser, code: string) {
  authorizeEnable(await loadState(ctx, user.id));
  const codes = newRecoveryCodes();
  const now = ctx.now();
  const ok = await consumeTotp(ctx, user.id, code, 'pending', async (tx) => {
    await tx.update(users).set({ totpEnabledAt: now }).where(eq(users.id, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx
      .insert(recoveryCodes)
      .values(codes.map((c) => ({ userId: user.id, codeHash: hashRecoveryCode(c), createdAt: now })));
  });
  if (!ok) {
    // Setup may have been finished meanwhile (another tab): say so rather than "wrong code".
    authorizeEnable(await loadState(ctx, user.id));
    throw badRequest(SECURITY_MESSAGES.invalidCode, 'code');
  }
  return codes;
}

/**
 * Turns 2FA off after the owner proves both factors: the password (accounts made with Google have
 * none, so for them the code alone is the proof) and an authenticator or recovery code. Both checks
 * go through the login throttle, as at /api/login, so a stolen session cannot guess here instead.
 */
export async function disableTwoFactor(
  ctx: AppContext,
  user: SessionUser,
  input: TwoFactorDisableBody & { ip: string },
) {
  const state = await loadState(ctx, user.id);
  const adminOf = state.enabledAt ? await workspacesRequiringTwoFactorAdministeredBy(ctx, user.id) : [];
  authorizeDisable(state, adminOf);
  const who = { ip: input.ip, email: user.email };
  const { passwordHash } = state;
  if (passwordHash !== null) {
    if (!input.password) throw badRequest(SECURITY_MESSAGES.passwordRequired, 'password');
    const password = input.password;
    if (!(await throttledCheck(ctx, who, () => verifyPassword(passwordHash, password)))) {
      throw badRequest(SECURITY_MESSAGES.wrongPassword, 'password');
    }
  }
  if (!(await throttledCheck(ctx, who, () => consumeSecondFactor(ctx, user.id, input.code)))) {
    throw badRequest(SECURITY_MESSAGES.invalidCode, 'code');
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ totpSecret: null, totpEnabledAt: null }).where(eq(users.id, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, user.id));
    await tx.delete(rateLimitHits).where(eq(rateLimitHits.key, stepKey(user.id)));
  });
}

// -- The code step of a sign-in ----------------------------------------------------------------------

/**
 * After a correct password on an account with 2FA on: a random challenge (only its hash stored)
 * that the browser redeems with a code within CHALLENGE_TTL_MS. No session exists until then.
 */
export async function createLoginChallenge(ctx: AppContext, userId: string, remember: boolean) {
  const challenge = randomBytes(32).toString('base64url');
  const now = ctx.now();
  // Finished and stale challenges of the account are useless; dropping them keeps the table small.
  await ctx.db
    .delete(loginChallenges)
    .where(
      and(
        eq(loginChallenges.userId, userId),
        or(lt(loginChallenges.expiresAt, now), sql`${loginChallenges.usedAt} is not null`),
      ),
    );
  await ctx.db.insert(loginChallenges).values({
    tokenHash: hashToken(challenge),
    userId,
    remember,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return challenge;
}

/**
 * Redeems a challenge with an authenticator or recovery code into a session. The attempt is counted
 * atomically before the code is checked (at most MAX_CHALLENGE_ATTEMPTS per challenge, however many
 * requests race), and the code check is reserved in the login throttle like a password, so wrong
 * codes count toward the account's limits too.
 */
export async function redeemLoginChallenge(
  ctx: AppContext,
  input: {
    challenge: string;
    code: string;
    remember?: boolean | undefined;
    ip: string;
    device: SessionDevice;
  },
) {
  const now = ctx.now();
  const [attempt] = await ctx.db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(
      and(
        eq(loginChallenges.tokenHash, hashToken(input.challenge)),
        isNull(loginChallenges.usedAt),
        gt(loginChallenges.expiresAt, now),
        lt(loginChallenges.attempts, MAX_CHALLENGE_ATTEMPTS),
      ),
    )
    .returning({
      id: loginChallenges.id,
      userId: loginChallenges.userId,
      remember: loginChallenges.remember,
    });
  if (!attempt) throw unauthorized(SECURITY_MESSAGES.challengeExpired);

  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, attempt.userId));
  if (!user) throw unauthorized(SECURITY_MESSAGES.challengeExpired);
  const who = { ip: input.ip, email: user.email };
  if (!(await throttledCheck(ctx, who, () => consumeSecondFactor(ctx, attempt.userId, input.code)))) {
    throw new HttpError(401, SECURITY_MESSAGES.invalidCode, 'code');
  }
  // One session per challenge, even if two right codes (a TOTP and a recovery code) race.
  const [redeemed] = await ctx.db
    .update(loginChallenges)
    .set({ usedAt: now })
    .where(and(eq(loginChallenges.id, attempt.id), isNull(loginChallenges.usedAt)))
    .returning({ id: loginChallenges.id });
  if (!redeemed) throw unauthorized(SECURITY_MESSAGES.challengeExpired);
  const remember = input.remember ?? attempt.remember;
  return { token: await createSession(ctx, attempt.userId, remember, input.device), remember };
}
