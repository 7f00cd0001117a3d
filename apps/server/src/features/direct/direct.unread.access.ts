import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { directConversations, directMessages, users } from '../../db/schema.ts';
import { countUnread } from '../messaging/messaging.unread.access.ts';
import { orderedPair } from '../workspaces/peers.access.ts';

/**
 * Direct conversations and their unread counts for the reads feature, so it never queries the
 * direct tables itself. A conversation is always readable by its two parties.
 */

export interface ConversationOfUser {
  id: string;
  lastSeq: number;
  other: { id: string; email: string; firstName: string; lastName: string };
  /** The newest message (the one at lastSeq); absent in `findPartner`'s answer. */
  last?: LastDirectMessage | null;
}

export interface LastDirectMessage {
  content: string;
  fromMe: boolean;
  createdAt: Date;
  deleted: boolean;
}

/**
 * Every conversation the user is a party of, with its newest message, newest first — one query (the
 * newest message is the one at the conversation's last_seq, found by the (conversation, seq) key).
 */
export async function conversationsOf(ctx: AppContext, userId: string): Promise<ConversationOfUser[]> {
  const rows = await ctx.db
    .select({
      id: directConversations.id,
      lastSeq: directConversations.lastSeq,
      other: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
      lastContent: directMessages.content,
      lastSenderId: directMessages.senderId,
      lastCreatedAt: directMessages.createdAt,
      lastDeletedAt: directMessages.deletedAt,
    })
    .from(directConversations)
    .innerJoin(
      users,
      sql`${users.id} = case when ${directConversations.userA} = ${userId}::uuid
        then ${directConversations.userB} else ${directConversations.userA} end`,
    )
    .leftJoin(
      directMessages,
      and(
        eq(directMessages.conversationId, directConversations.id),
        eq(directMessages.seq, directConversations.lastSeq),
      ),
    )
    .where(or(eq(directConversations.userA, userId), eq(directConversations.userB, userId)))
    .orderBy(desc(sql`coalesce(${directMessages.createdAt}, ${directConversations.createdAt})`), users.email);
  return rows.map((r) => ({
    id: r.id,
    lastSeq: Number(r.lastSeq),
    other: r.other,
    last:
      r.lastCreatedAt === null || r.lastSenderId === null
        ? null
        : {
            content: r.lastDeletedAt ? '' : (r.lastContent ?? ''),
            fromMe: r.lastSenderId === userId,
            createdAt: new Date(r.lastCreatedAt),
            deleted: r.lastDeletedAt !== null,
          },
  }));
}

/**
 * The person with this e-mail and their conversation with the user (null when they never wrote to
 * each other); null for an unknown e-mail or the user themselves. Whether the user may write to them
 * is `loadRecipientForUser`'s question, not this one's.
 */
export async function findPartner(
  ctx: AppContext,
  userId: string,
  email: string,
): Promise<{
  other: ConversationOfUser['other'];
  conversation: { id: string; lastSeq: number } | null;
} | null> {
  const [other] = await ctx.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  if (!other || other.id === userId) return null;
  const [a, b] = orderedPair(userId, other.id);
  const [row] = await ctx.db
    .select({ id: directConversations.id, lastSeq: directConversations.lastSeq })
    .from(directConversations)
    .where(and(eq(directConversations.userA, a), eq(directConversations.userB, b)))
    .limit(1);
  return { other, conversation: row ? { id: row.id, lastSeq: Number(row.lastSeq) } : null };
}

/** Per conversation: not deleted messages to the reader with seq > afterSeq, at most `cap`. */
export function countUnreadInConversations(
  ctx: AppContext,
  readerId: string,
  marks: Array<{ conversationId: string; afterSeq: number }>,
  cap: number,
): Promise<Map<string, number>> {
  return countUnread(ctx, 'direct', readerId, marks, cap);
}
