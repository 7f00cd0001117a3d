import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { sharesWorkspace } from './workspaces.access.ts';

/**
 * Who may write to whom: people who share a workspace. Used by direct messages and by files shared in
 * a direct conversation (and presence), so that neither depends on the other.
 */

export interface Party {
  id: string;
  email: string;
}

/** The pair in the order the table keys it (user_a < user_b). */
export const orderedPair = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

export const recipientNotFound = () => notFound(CHAT_MESSAGES.recipientNotFound);

export async function findUserByEmail(ctx: AppContext, email: string): Promise<Party | null> {
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

/**
 * Two people may message each other only while they are both (active) members of one workspace: once
 * they no longer share one (one left or was removed), sending stops, even in an existing
 * conversation, whose history stays readable. An unknown e-mail and a stranger get the same answer,
 * so the endpoint cannot be used to find out who has an account.
 */
export async function loadRecipientForUser(ctx: AppContext, caller: Party, email: string): Promise<Party> {
  const receiver = await findUserByEmail(ctx, email);
  if (!receiver || receiver.id === caller.id) throw recipientNotFound();
  if (!(await sharesWorkspace(ctx, caller.id, receiver.id))) throw recipientNotFound();
  return receiver;
}
