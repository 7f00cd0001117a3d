import type { ChangePasswordBody, SignupBody } from '@cohort/shared/accounts';
import { ACCOUNT_MESSAGES } from '@cohort/shared/accounts';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { loginChallenges, recoveryCodes, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, conflict, unauthorized } from '../../http/errors.ts';
import {
  createSession,
  revokeAllSessions,
  revokeOtherSessions,
  type SessionDevice,
  type SessionUser,
} from '../../http/session.ts';
import { retireAccountTokens } from './account-tokens.ts';
import { queueVerification } from './email.service.ts';
import type { GoogleIdentity } from './google.ts';
import { throttledCheck } from './login-limiter.ts';
import { assertStrongPassword, hashPassword, verifyPassword } from './passwords.ts';
import { createLoginChallenge } from './two-factor.service.ts';

type UserInsert = typeof users.$inferInsert;

type User = typeof users.$inferSelect;

/**
 * Inserts the user and lets other features react (pending invitations) in the same transaction;
 * `andThen` runs in it too (the verification mail of a sign-up).
 */
async function createUser(
  ctx: AppContext,
  values: UserInsert,
  andThen?: (user: User, tx: Tx) => Promise<void>,
) {
  try {
    return await ctx.db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values(values).returning();
      if (!user) throw new Error('insert returned no row');
      await ctx.bus.emitStrict('userCreated', { user, db: tx });
      await andThen?.(user, tx);
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
    throw err;
  }
}

/**
 * A password account, unverified: a verification link is mailed (queued in the same transaction, so
 * an account never exists without its mail). It can sign in at once; invitations wait for the link.
 */
export async function signup(ctx: AppContext, body: SignupBody) {
  const [existing] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, body.email));
  if (existing) throw conflict(ACCOUNT_MESSAGES.emailTaken);
  await assertStrongPassword(body.password, [body.email, body.firstName, body.lastName], 'password');
  await createUser(
    ctx,
    {
      email: body.email,
      firstName: body.firstName,
      lastName: body.lastName,
      passwordHash: await hashPassword(body.password),
    },
    (user, tx) => queueVerification(ctx, tx, user),
  );
  ctx.mail.wake();
}

/**
 * A password sign-in: a session, or — when the account has two-factor sign-in on — only a challenge
 * to redeem with a code at /api/login/two-factor (no session exists before the code).
 */
export async function login(
  ctx: AppContext,
  input: { email: string; password: string; ip: string; remember: boolean; device: SessionDevice },
): Promise<{ token: string } | { challenge: string }> {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  // Reserved before argon2 runs (429 over the limits), released only when the password is right.
  const ok = await throttledCheck(ctx, input, () =>
    verifyPassword(user?.passwordHash ?? null, input.password),
  );
  if (!user || !ok) {
    // One message for unknown e-mail and wrong password: no account enumeration.
    throw unauthorized(ACCOUNT_MESSAGES.invalidCredentials);
  }
  if (user.totpEnabledAt) return { challenge: await createLoginChallenge(ctx, user.id, input.remember) };
  return { token: await createSession(ctx, user.id, input.remember, input.device) };
}

/**
 * A new password for a signed-in user who proves the current one. Wrong guesses count toward the
 * login throttle (same IP and account keys), so a stolen session cannot brute-force the password
 * here instead of at /api/login. Every other session is revoked and its sockets closed, and a
 * pending e-mail change ends (its link would otherwise still move the account).
 */
export async function changePassword(
  ctx: AppContext,
  user: SessionUser,
  input: ChangePasswordBody & { ip: string },
) {
  const [row] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  // An account made with Google has no password: say so rather than "incorrect" (no guess counted).
  if (row && row.passwordHash === null) {
    throw badRequest(ACCOUNT_MESSAGES.googleOnlyAccount, 'currentPassword');
  }
  const who = { ip: input.ip, email: user.email };
  const current = row?.passwordHash ?? null;
  if (!(await throttledCheck(ctx, who, () => verifyPassword(current, input.currentPassword)))) {
    throw badRequest(ACCOUNT_MESSAGES.wrongCurrentPassword, 'currentPassword');
  }
  await assertStrongPassword(input.newPassword, [user.email, user.firstName, user.lastName], 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // Whoever knew the old password may have begun an e-mail change or a sign-in's code step.
    await retireAccountTokens(tx, user.id, ['change_email'], now);
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, user.id));
  });
  await revokeOtherSessions(ctx, user.id, user.sessionId);
}

/**
 * Google sign-in and sign-up share one rule: the account keyed by Google's `sub`, else the account
 * with the same (Google-verified) e-mail, else a new, verified account.
 *
 * A password account with that e-mail is linked as it is when its address was verified. One that was
 * never verified proves nothing about who made it — perhaps someone who typed another person's
 * address in advance — so the Google identity wins: its password, two-factor secret, recovery codes,
 * pending links and every session end, and it becomes the Google user's verified account.
 */
export async function signInWithGoogle(
  ctx: AppContext,
  identity: GoogleIdentity,
  remember: boolean,
  device?: SessionDevice,
) {
  const [bySub] = await ctx.db.select().from(users).where(eq(users.googleSub, identity.sub));
  if (bySub) return createSession(ctx, bySub.id, remember, device);

  const [byEmail] = await ctx.db.select().from(users).where(eq(users.email, identity.email));
  if (byEmail) {
    if (byEmail.googleSub) throw conflict('This e-mail is linked to another Google account');
    if (byEmail.emailVerifiedAt) {
      await ctx.db.update(users).set({ googleSub: identity.sub }).where(eq(users.id, byEmail.id));
      return createSession(ctx, byEmail.id, remember, device);
    }
    await takeOverUnverifiedAccount(ctx, byEmail.id, identity.sub);
    return createSession(ctx, byEmail.id, remember, device);
  }
  const user = await createUser(ctx, {
    email: identity.email,
    googleSub: identity.sub,
    firstName: identity.firstName,
    lastName: identity.lastName,
    emailVerifiedAt: ctx.now(),
  });
  return createSession(ctx, user.id, remember, device);
}

/** The unverified account becomes the Google user's: nothing its maker set up keeps working. */
async function takeOverUnverifiedAccount(ctx: AppContext, userId: string, googleSub: string) {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .update(users)
      .set({ googleSub, passwordHash: null, emailVerifiedAt: now, totpSecret: null, totpEnabledAt: null })
      // Still unverified and unlinked: a concurrent verification or link is not overwritten.
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt), isNull(users.googleSub)))
      .returning({ id: users.id });
    if (!taken) throw conflict('This account changed while signing in. Please try again.');
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
    await retireAccountTokens(tx, userId, ['verify_email', 'reset_password', 'change_email'], now);
  });
  const ended = await revokeAllSessions(ctx, userId);
  ctx.log.info(
    { userId, sessionsEnded: ended },
    'unverified password account taken over by its Google identity',
  );
}
