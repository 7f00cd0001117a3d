import { and, eq, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { directConversations, directMessages, users } from '../../db/schema.ts';
import { orderedPair } from '../workspaces/peers.access.ts';

/**
 * Direct conversations and their unread counts for the reads feature, so it never queries the
 * direct tables itself. A conversation is always readable by its two parties.
 */

export interface ConversationOfUser {
  id: string;
  lastSeq: number;
  other: { id: string; email: string; firstName: string; lastName: string };
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Every conversation the user is a party of, by partner e-mail. */
export async function conversationsOf(ctx: AppContext, userId: string): Promise<ConversationOfUser[]> {
  const rows = await ctx.db
    .select({
      id: directConversations.id,
      lastSeq: directConversations.lastSeq,
      other: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
    })
    .from(directConversations)
    .innerJoin(
      users,
      sql`${users.id} = case when ${directConversations.userA} = ${userId}::uuid
        then ${directConversations.userB} else ${directConversations.userA} end`,
    )
    .where(or(eq(directConversations.userA, userId), eq(directConversations.userB, userId)))
    .orderBy(users.email);
  return rows.map((r) => ({ ...r, lastSeq: Number(r.lastSeq) }));
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
export async function countUnreadInConversations(
  ctx: AppContext,
  readerId: string,
  marks: Array<{ conversationId: string; afterSeq: number }>,
  cap: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (marks.length === 0) return counts;
  const values = sql.join(
    marks.map((m) => sql`(${m.conversationId}::uuid, ${m.afterSeq}::bigint)`),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    select m.id::text as id,
      (select count(*) from (
        select 1 from ${directMessages} dm
        where dm.conversation_id = m.id and dm.seq > m.after and dm.deleted_at is null
          and dm.sender_id <> ${readerId}::uuid
        limit ${cap}) s) as n
    from (values ${values}) as m(id, after)`);
  for (const row of rowsOf<{ id: string; n: number | string }>(result)) counts.set(row.id, Number(row.n));
  return counts;
}
