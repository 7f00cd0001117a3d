import {
  ACCOUNT_MESSAGES,
  CHANGE_EMAIL_TTL_HOURS,
  type ChangeEmailBody,
  EMAIL_MESSAGES,
  VERIFY_EMAIL_TTL_HOURS,
} from '@cohort/shared/accounts';
import { and, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, conflict, HttpError } from '../../http/errors.ts';
import { takeRateLimit } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import {
  findAccountToken,
  issueAccountToken,
  retireAccountTokens,
  useAccountToken,
} from './account-tokens.ts';
import { throttledCheck } from './login-limiter.ts';
import { verifyPassword } from './passwords.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Verification mails one account may ask for again (the first, at sign-up, is not counted). */
export const VERIFICATION_RESEND_LIMIT = 3;
export const VERIFICATION_RESEND_WINDOW_MS = HOUR_MS;
/** E-mail change requests (each mails a link to an address of the requester's choosing) per hour. */
export const EMAIL_CHANGE_LIMIT = 5;

/**
 * Queues the verification mail of an account, in the transaction that creates it (sign-up) or asks
 * again (resend). Earlier links stop working: only the newest one verifies.
 */
export async function queueVerification(
  ctx: AppContext,
  db: Db | Tx,
  user: { id: string; email: string; firstName: string },
) {
  const now = ctx.now();
  await retireAccountTokens(db, user.id, ['verify_email'], now);
  const token = await issueAccountToken(db, {
    userId: user.id,
    kind: 'verify_email',
    email: user.email,
    ttlMs: VERIFY_EMAIL_TTL_HOURS * HOUR_MS,
    now,
  });
  await ctx.bus.emitStrict('verificationIssued', { db, to: user.email, firstName: user.firstName, token });
}

/**
 * Following the link marks the address verified. The link proves the address it was sent to, so it
 * counts only while that is still the account's address.
 */
export async function verifyEmail(ctx: AppContext, token: string) {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const row = await findAccountToken(tx, 'verify_email', token, now);
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!user || user.email !== row.newEmail) throw badRequest(EMAIL_MESSAGES.linkInvalid, 'token');
    if (!(await useAccountToken(tx, row.id, now))) throw badRequest(EMAIL_MESSAGES.linkUsed, 'token');
    if (!user.emailVerifiedAt) {
      await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id));
    }
  });
}

/** Another verification mail, for a signed-in account that is not verified yet; rate-limited. */
export async function resendVerification(ctx: AppContext, user: SessionUser) {
  if (user.emailVerified) throw badRequest(EMAIL_MESSAGES.alreadyVerified);
  // Reserved before the mail is queued: a burst of requests cannot send more than the budget.
  const waitMs = await takeRateLimit(
    ctx,
    `verify-resend:${user.id}`,
    VERIFICATION_RESEND_LIMIT,
    VERIFICATION_RESEND_WINDOW_MS,
  );
  if (waitMs !== null) return { waitMs };
  await ctx.db.transaction((tx) => queueVerification(ctx, tx, user));
  ctx.mail.wake();
  return { waitMs: null };
}

/**
 * Asks to move the account to `newEmail`: the current password proves the owner is at the keyboard
 * (wrong guesses count toward the login throttle, as for a password change), and a link to the NEW
 * address proves it belongs to them. Nothing changes until that link is used.
 */
export async function requestEmailChange(
  ctx: AppContext,
  user: SessionUser,
  input: ChangeEmailBody & { ip: string },
) {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw badRequest(EMAIL_MESSAGES.linkInvalid);
  const { passwordHash } = row;
  if (passwordHash === null) throw badRequest(EMAIL_MESSAGES.changeGoogleOnly, 'password');
  // The login throttle's reservation (429 over its limits), taken before the slow verification.
  const ok = await throttledCheck(ctx, { ip: input.ip, email: user.email }, () =>
    verifyPassword(passwordHash, input.password),
  );
  if (!ok) throw badRequest(EMAIL_MESSAGES.wrongPassword, 'password');
  if (input.newEmail === row.email) throw badRequest(EMAIL_MESSAGES.changeSameAddress, 'newEmail');
  const [taken] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, input.newEmail), ne(users.id, user.id)));
  if (taken) throw conflict(ACCOUNT_MESSAGES.emailTaken);
  // Reserved before the mail is queued: a session cannot mail links to any number of addresses.
  const waitMs = await takeRateLimit(ctx, `email-change:${user.id}`, EMAIL_CHANGE_LIMIT, HOUR_MS);
  if (waitMs !== null) throw new HttpError(429, EMAIL_MESSAGES.changeLimited);

  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    // One pending change at a time: an earlier link (perhaps to a mistyped address) stops working.
    await retireAccountTokens(tx, user.id, ['change_email'], now);
    const token = await issueAccountToken(tx, {
      userId: user.id,
      kind: 'change_email',
      email: input.newEmail,
      ttlMs: CHANGE_EMAIL_TTL_HOURS * HOUR_MS,
      now,
    });
    await ctx.bus.emitStrict('emailChangeRequested', {
      db: tx,
      to: input.newEmail,
      firstName: row.firstName,
      oldEmail: row.email,
      token,
    });
  });
  ctx.mail.wake();
}

/**
 * The link from the new address: the account moves to it, verified, and the old address is told.
 * If someone took the address in the meantime the change fails with 409 and nothing changes.
 */
export async function confirmEmailChange(ctx: AppContext, token: string) {
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      const row = await findAccountToken(tx, 'change_email', token, now);
      const newEmail = row.newEmail;
      const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
      if (!user || !newEmail) throw badRequest(EMAIL_MESSAGES.linkInvalid, 'token');
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, newEmail), ne(users.id, user.id)));
      if (taken) throw conflict(ACCOUNT_MESSAGES.emailTaken);
      if (!(await useAccountToken(tx, row.id, now))) throw badRequest(EMAIL_MESSAGES.linkUsed, 'token');
      await tx.update(users).set({ email: newEmail, emailVerifiedAt: now }).where(eq(users.id, user.id));
      // Links mailed to the old address (verification, reset) must not act on the account any more.
      await retireAccountTokens(tx, user.id, ['verify_email', 'reset_password', 'change_email'], now);
      await ctx.bus.emitStrict('emailChanged', {
        db: tx,
        oldEmail: user.email,
        newEmail,
        firstName: user.firstName,
      });
    });
  } catch (err) {
    // Taken between the check and the update (a sign-up racing this link): the unique index decides.
    if (isUniqueViolation(err)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
    throw err;
  }
  ctx.mail.wake();
}
