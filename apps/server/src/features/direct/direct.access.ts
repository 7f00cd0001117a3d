import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { directConversations, users, workspaceMembers } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/** Who may write to whom (used by direct messages and by files shared in a direct conversation). */

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
 * Two people may message each other when they are both (active) members of one workspace, or when
 * they already have a conversation. An unknown e-mail and a stranger get the same answer, so the
 * endpoint cannot be used to find out who has an account.
 */
export async function loadRecipientForUser(ctx: AppContext, caller: Party, email: string): Promise<Party> {
  const receiver = await findUserByEmail(ctx, email);
  if (!receiver || receiver.id === caller.id) throw recipientNotFound();
  const [a, b] = orderedPair(caller.id, receiver.id);
  const other = alias(workspaceMembers, 'other');
  const [shared] = await ctx.db
    .select({ one: sql<number>`1` })
    .from(workspaceMembers)
    .innerJoin(other, and(eq(other.workspaceId, workspaceMembers.workspaceId), eq(other.userId, receiver.id)))
    .where(eq(workspaceMembers.userId, caller.id))
    .limit(1);
  if (shared) return receiver;
  const [existing] = await ctx.db
    .select({ id: directConversations.id })
    .from(directConversations)
    .where(and(eq(directConversations.userA, a), eq(directConversations.userB, b)))
    .limit(1);
  if (!existing) throw recipientNotFound();
  return receiver;
}
