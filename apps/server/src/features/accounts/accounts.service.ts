import type { ChangePasswordBody, SignupBody } from '@cohort/shared/accounts';
import { ACCOUNT_MESSAGES } from '@cohort/shared/accounts';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, conflict, HttpError, unauthorized } from '../../http/errors.ts';
import { createSession, revokeOtherSessions, type SessionUser } from '../../http/session.ts';
import type { GoogleIdentity } from './google.ts';
import { isLoginBlocked, recordLoginFailure } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

type UserInsert = typeof users.$inferInsert;

/** Inserts the user and lets other features react (pending invitations) in the same transaction. */
async function createUser(ctx: AppContext, values: UserInsert) {
  try {
    return await ctx.db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values(values).returning();
      if (!user) throw new Error('insert returned no row');
      for (const hook of ctx.onUserCreated) await hook(user, tx);
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
    throw err;
  }
}

export async function signup(ctx: AppContext, body: SignupBody) {
  const [existing] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, body.email));
  if (existing) throw conflict(ACCOUNT_MESSAGES.emailTaken);
  await createUser(ctx, {
    email: body.email,
    firstName: body.firstName,
    lastName: body.lastName,
    passwordHash: await hashPassword(body.password),
  });
}

export async function login(
  ctx: AppContext,
  input: { email: string; password: string; ip: string; remember: boolean },
) {
  if (await isLoginBlocked(ctx, input.ip, input.email)) {
    throw new HttpError(429, ACCOUNT_MESSAGES.tooManyAttempts);
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) {
    await recordLoginFailure(ctx, input.ip, input.email);
    // One message for unknown e-mail and wrong password: no account enumeration.
    throw unauthorized(ACCOUNT_MESSAGES.invalidCredentials);
  }
  return createSession(ctx, user.id, input.remember);
}

/**
 * A new password for a signed-in user who proves the current one. Wrong guesses count toward the
 * login throttle (same IP and account keys), so a stolen session cannot brute-force the password
 * here instead of at /api/login. Every other session is revoked and its sockets closed.
 */
export async function changePassword(
  ctx: AppContext,
  user: SessionUser,
  input: ChangePasswordBody & { ip: string },
) {
  if (await isLoginBlocked(ctx, input.ip, user.email)) {
    throw new HttpError(429, ACCOUNT_MESSAGES.tooManyAttempts);
  }
  const [row] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  // An account made with Google has no password: say so rather than "incorrect" (no guess counted).
  if (row && row.passwordHash === null) {
    throw badRequest(ACCOUNT_MESSAGES.googleOnlyAccount, 'currentPassword');
  }
  if (!(await verifyPassword(row?.passwordHash ?? null, input.currentPassword))) {
    await recordLoginFailure(ctx, input.ip, user.email);
    throw badRequest(ACCOUNT_MESSAGES.wrongCurrentPassword, 'currentPassword');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
  await revokeOtherSessions(ctx, user.id, user.sessionId);
}

/**
 * Google sign-in and sign-up share one rule: the account keyed by Google's `sub`, else the account
 * with the same (Google-verified) e-mail, which gets linked, else a new account.
 */
export async function signInWithGoogle(ctx: AppContext, identity: GoogleIdentity, remember: boolean) {
  const [bySub] = await ctx.db.select().from(users).where(eq(users.googleSub, identity.sub));
  if (bySub) return createSession(ctx, bySub.id, remember);

  const [byEmail] = await ctx.db.select().from(users).where(eq(users.email, identity.email));
  if (byEmail) {
    if (byEmail.googleSub) throw conflict('This e-mail is linked to another Google account');
    await ctx.db.update(users).set({ googleSub: identity.sub }).where(eq(users.id, byEmail.id));
    return createSession(ctx, byEmail.id, remember);
  }
  const user = await createUser(ctx, {
    email: identity.email,
    googleSub: identity.sub,
    firstName: identity.firstName,
    lastName: identity.lastName,
  });
  return createSession(ctx, user.id, remember);
}
