import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import { channelMessages, directMessages } from '../../db/schema.ts';
import type { MessageKind } from './messaging.access.ts';

export interface SeqMark {
  conversationId: string;
  /** Count messages with a seq above this one. */
  afterSeq: number;
}

/**
 * Per conversation: not deleted messages of others with seq > afterSeq, at most `cap` (each count
 * stops at the cap, walking the (conversation, seq) index). In channels, thread replies and system
 * messages do not count.
 * One statement. The caller has already checked that the reader may read these conversations.
 */
export async function countUnread(
  ctx: AppContext,
  kind: MessageKind,
  readerId: string,
  marks: SeqMark[],
  cap: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (marks.length === 0) return counts;
  const values = sql.join(
    marks.map((m) => sql`(${m.conversationId}::uuid, ${m.afterSeq}::bigint)`),
    sql`, `,
  );
  const inConversation =
    kind === 'channel'
      ? // Announcements ("Ada joined the channel") are not news.
        sql`${channelMessages} t where t.channel_id = m.id and t.parent_id is null and t.kind = 'text'`
      : sql`${directMessages} t where t.conversation_id = m.id`;
  const result = await ctx.db.execute(sql`
    select m.id::text as id,
      (select count(*) from (
        select 1 from ${inConversation} and t.seq > m.after
          and t.deleted_at is null and t.sender_id <> ${readerId}::uuid
        limit ${cap}) s) as n
    from (values ${values}) as m(id, after)`);
  for (const row of rowsOf<{ id: string; n: number | string }>(result)) counts.set(row.id, Number(row.n));
  return counts;
}
