import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { and, asc, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { directConversations, directMessages, users, workspaceMembers } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, notFound } from '../../http/errors.ts';

export interface Party {
  id: string;
  email: string;
}

export interface StoredDirectMessage {
  id: string;
  seq: number;
  sender: Party;
  receiver: Party;
  content: string;
  messageType: 'text';
  clientId: string;
  createdAt: Date;
}

/** The pair in the order the table keys it (user_a < user_b). */
const orderedPair = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

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

/**
 * Stores a direct message in one statement: the conversation row is created or its last_seq bumped
 * (the row lock orders concurrent senders of the pair) and the message takes that seq. A failing
 * INSERT — a resent clientId — undoes the bump, so seq stays gapless, and the resend is answered
 * with the original message.
 */
export async function sendDirectMessage(
  ctx: AppContext,
  sender: Party,
  receiver: Party,
  input: { clientId: string; content: string },
): Promise<{ message: StoredDirectMessage; created: boolean }> {
  const [a, b] = orderedPair(sender.id, receiver.id);
  const now = ctx.now();
  try {
    const result = await ctx.db.execute(sql`
      with conv as (
        insert into ${directConversations} (user_a, user_b, last_seq, created_at)
        values (${a}::uuid, ${b}::uuid, 1, ${now.toISOString()}::timestamptz)
        on conflict (user_a, user_b) do update set last_seq = ${directConversations}.last_seq + 1
        returning id, last_seq
      )
      insert into ${directMessages}
        (conversation_id, seq, sender_id, receiver_id, content, message_type, client_id, created_at)
      select conv.id, conv.last_seq, ${sender.id}::uuid, ${receiver.id}::uuid, ${input.content}, 'text',
             ${input.clientId}::uuid, ${now.toISOString()}::timestamptz
      from conv
      returning id, seq, created_at`);
    const [row] = rowsOf<{ id: string; seq: number | string; created_at: Date | string }>(result);
    if (!row) throw new Error('direct message insert returned no row');
    return {
      created: true,
      message: {
        id: row.id,
        seq: Number(row.seq),
        sender,
        receiver,
        content: input.content,
        messageType: 'text',
        clientId: input.clientId,
        createdAt: new Date(row.created_at),
      },
    };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const [original] = await ctx.db
    .select()
    .from(directMessages)
    .where(and(eq(directMessages.senderId, sender.id), eq(directMessages.clientId, input.clientId)))
    .limit(1);
  if (!original || original.receiverId !== receiver.id) throw badRequest(CHAT_MESSAGES.invalidClientId);
  return { created: false, message: { ...original, sender, receiver } };
}

/**
 * A page of the conversation between the caller and `other`, oldest first: the newest `limit`
 * (below `before` when given), or with `after` the oldest `limit` above it.
 */
export async function listDirectMessages(
  ctx: AppContext,
  caller: Party,
  other: Party,
  page: { before?: number | undefined; after?: number | undefined; limit: number },
): Promise<StoredDirectMessage[]> {
  const [a, b] = orderedPair(caller.id, other.id);
  const [conversation] = await ctx.db
    .select({ id: directConversations.id })
    .from(directConversations)
    .where(and(eq(directConversations.userA, a), eq(directConversations.userB, b)))
    .limit(1);
  if (!conversation) return [];
  const conditions: SQL[] = [eq(directMessages.conversationId, conversation.id)];
  if (page.after !== undefined) conditions.push(gt(directMessages.seq, page.after));
  if (page.before !== undefined) conditions.push(lt(directMessages.seq, page.before));
  const query = ctx.db
    .select()
    .from(directMessages)
    .where(and(...conditions))
    .$dynamic();
  const rows =
    page.after !== undefined
      ? await query.orderBy(asc(directMessages.seq)).limit(page.limit)
      : (await query.orderBy(desc(directMessages.seq)).limit(page.limit)).reverse();
  const parties = new Map([
    [caller.id, caller],
    [other.id, other],
  ]);
  return rows.map((r) => ({
    ...r,
    sender: parties.get(r.senderId) ?? other,
    receiver: parties.get(r.receiverId) ?? other,
  }));
}
