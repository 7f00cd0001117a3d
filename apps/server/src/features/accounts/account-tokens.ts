import { randomBytes } from 'node:crypto';
import { EMAIL_MESSAGES } from '@cohort/shared/accounts';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { accountTokens } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { hashToken } from '../../http/session.ts';

export type AccountTokenKind = (typeof accountTokens.$inferSelect)['kind'];
export type AccountToken = typeof accountTokens.$inferSelect;

/**
 * Issues a single-use token for a mailed link: 32 random bytes for the link, only their SHA-256 in
 * the database (a leaked table opens no account). `email` is the address the link is sent to and
 * proves: the account's own for verify_email/reset_password, the requested one for change_email.
 */
export async function issueAccountToken(
  db: Db | Tx,
  input: { userId: string; kind: AccountTokenKind; email: string; ttlMs: number; now: Date },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(accountTokens).values({
    userId: input.userId,
    kind: input.kind,
    tokenHash: hashToken(token),
    newEmail: input.email,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + input.ttlMs),
  });
  return token;
}

/**
 * The live token of this kind, or a 400 that says what is wrong with the link: unknown (or of
 * another kind: a reset link cannot verify an address), already used, or expired.
 */
export async function findAccountToken(
  db: Db | Tx,
  kind: AccountTokenKind,
  token: string,
  now: Date,
): Promise<AccountToken> {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(token)), eq(accountTokens.kind, kind)));
  if (!row) throw badRequest(EMAIL_MESSAGES.linkInvalid, 'token');
  if (row.usedAt) throw badRequest(EMAIL_MESSAGES.linkUsed, 'token');
  if (row.expiresAt.getTime() <= now.getTime()) throw badRequest(EMAIL_MESSAGES.linkExpired, 'token');
  return row;
}

/**
 * Marks the token used, once: of two requests racing with one link only one gets `true` (the
 * condition is checked by the UPDATE itself). Call it in the transaction of the change it allows.
 */
export async function useAccountToken(db: Db | Tx, id: string, now: Date): Promise<boolean> {
  const used = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.id, id), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
    .returning({ id: accountTokens.id });
  return used.length === 1;
}

/** Ends the user's outstanding links of these kinds (a newer link, or a change that makes them moot). */
export async function retireAccountTokens(db: Db | Tx, userId: string, kinds: AccountTokenKind[], now: Date) {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(eq(accountTokens.userId, userId), inArray(accountTokens.kind, kinds), isNull(accountTokens.usedAt)),
    );
}
