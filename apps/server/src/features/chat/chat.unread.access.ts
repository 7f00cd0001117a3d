import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { channelMessages } from '../../db/schema.ts';

/**
 * Unread counting for the reads feature, so it never queries the chat tables itself. The caller has
 * already checked that the reader may read these channels.
 */

export interface SeqMark {
  conversationId: string;
  /** Count messages with a seq above this one. */
  afterSeq: number;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Per channel: top-level (not a thread reply), not deleted messages of others with seq > afterSeq,
 * at most `cap` (each count stops at the cap, walking the (channel_id, seq) index). One statement.
 */
export async function countUnreadInChannels(
  ctx: AppContext,
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
  const result = await ctx.db.execute(sql`
    select m.id::text as id,
      (select count(*) from (
        select 1 from ${channelMessages} cm
        where cm.channel_id = m.id and cm.seq > m.after and cm.parent_id is null
          and cm.deleted_at is null and cm.sender_id <> ${readerId}::uuid
        limit ${cap}) s) as n
    from (values ${values}) as m(id, after)`);
  for (const row of rowsOf<{ id: string; n: number | string }>(result)) counts.set(row.id, Number(row.n));
  return counts;
}
