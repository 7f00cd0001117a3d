import { SAVED_MESSAGES, SAVED_PER_USER_MAX, type SavedKind } from '@cohort/shared/saved';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import {
  channelMessages,
  channels,
  directMessages,
  savedMessages,
  users,
  workspaces,
} from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { isMessageId } from '../messaging/messaging.access.ts';
import { type Caller, readableChannelIdsSql } from '../workspaces/workspaces.access.ts';

/**
 * Messages saved for later (issue 22), private to their saver. A saved row stays while its message
 * exists (foreign keys cascade), but it is listed — and counts against the cap — only while the saver
 * can read the message *now*: a channel they may read (the access funnel's `readableChannelIdsSql`:
 * membership, private-channel listing, the workspace's two-factor rule), or a direct conversation they
 * are part of; deleted messages are left out. Leaving a workspace hides its saved messages; coming
 * back shows them again.
 */

/** A saved message as listed, with its conversation and sender (raw SQL row). */
export interface SavedRow {
  kind: SavedKind;
  message_id: string;
  saved_at: Date | string;
  seq: number | string;
  content: string;
  created_at: Date | string;
  parent_id: string | null;
  sender_id: string;
  sender_email: string;
  sender_first_name: string;
  sender_last_name: string;
  channel_id: string | null;
  channel_name: string | null;
  workspace_id: string | null;
  workspace_name: string | null;
  other_email: string | null;
  other_first_name: string | null;
  other_last_name: string | null;
}

/** The caller's listable saved rows (optionally one message), newest saved first. */
function listableSql(me: SQL, only?: { kind: SavedKind; messageId: string }) {
  const channelOnly = only
    ? only.kind === 'channel'
      ? sql` and m.id = ${only.messageId}::uuid`
      : sql` and false`
    : sql``;
  const directOnly = only
    ? only.kind === 'direct'
      ? sql` and m.id = ${only.messageId}::uuid`
      : sql` and false`
    : sql``;
  return sql`
    (select 'channel' as kind, m.id as message_id, s.saved_at, m.seq, m.content, m.created_at, m.parent_id,
        u.id as sender_id, u.email as sender_email, u.first_name as sender_first_name,
        u.last_name as sender_last_name,
        ch.id as channel_id, ch.name as channel_name, w.id as workspace_id, w.name as workspace_name,
        null::text as other_email, null::text as other_first_name, null::text as other_last_name
      from ${savedMessages} s
      join ${channelMessages} m on m.id = s.channel_message_id
      join ${channels} ch on ch.id = m.channel_id
      join ${workspaces} w on w.id = ch.workspace_id
      join ${users} u on u.id = m.sender_id
      where s.user_id = ${me} and m.deleted_at is null and ch.id in (${readableChannelIdsSql(me)})${channelOnly})
    union all
    (select 'direct' as kind, m.id as message_id, s.saved_at, m.seq, m.content, m.created_at,
        null::uuid as parent_id,
        u.id as sender_id, u.email as sender_email, u.first_name as sender_first_name,
        u.last_name as sender_last_name,
        null::uuid as channel_id, null::text as channel_name, null::uuid as workspace_id,
        null::text as workspace_name,
        o.email as other_email, o.first_name as other_first_name, o.last_name as other_last_name
      from ${savedMessages} s
      join ${directMessages} m on m.id = s.direct_message_id
      join ${users} u on u.id = m.sender_id
      join ${users} o on o.id = case when m.sender_id = ${me} then m.receiver_id else m.sender_id end
      where s.user_id = ${me} and m.deleted_at is null
        and (m.sender_id = ${me} or m.receiver_id = ${me})${directOnly})`;
}

/** The caller's saved messages they can still read, newest saved first (at most the cap). */
export async function listSaved(ctx: AppContext, caller: Caller): Promise<SavedRow[]> {
  const me = sql`${caller.id}::uuid`;
  const result = await ctx.db.execute(sql`
    select * from (${listableSql(me)}) x order by x.saved_at desc, x.message_id desc
    limit ${SAVED_PER_USER_MAX}`);
  return rowsOf<SavedRow>(result);
}

/** The ids of the caller's listable saved messages, by kind. */
export async function savedIdsOf(ctx: AppContext, caller: Caller) {
  const rows = await listSaved(ctx, caller);
  return {
    channel: rows.filter((r) => r.kind === 'channel').map((r) => r.message_id),
    direct: rows.filter((r) => r.kind === 'direct').map((r) => r.message_id),
  };
}

/** The message, if the caller may read it now and it is not deleted (404 otherwise, as for none). */
async function assertReadable(ctx: AppContext, caller: Caller, kind: SavedKind, messageId: string) {
  if (!isMessageId(messageId)) throw notFound(SAVED_MESSAGES.messageNotFound);
  const me = sql`${caller.id}::uuid`;
  const result =
    kind === 'channel'
      ? await ctx.db.execute(sql`select m.id from ${channelMessages} m
          where m.id = ${messageId}::uuid and m.deleted_at is null
            and m.channel_id in (${readableChannelIdsSql(me)})`)
      : await ctx.db.execute(sql`select m.id from ${directMessages} m
          where m.id = ${messageId}::uuid and m.deleted_at is null
            and (m.sender_id = ${me} or m.receiver_id = ${me})`);
  if (rowsOf(result).length === 0) throw notFound(SAVED_MESSAGES.messageNotFound);
}

/**
 * Saves the message for the caller: 404 unless they can read it, 409 at the cap. Saving twice changes
 * nothing (`changed: false`). The caller's row is locked while counting, so two saves at once cannot
 * pass the cap together. Answers the saved row as listed.
 */
export async function saveMessage(
  ctx: AppContext,
  caller: Caller,
  kind: SavedKind,
  messageId: string,
): Promise<{ row: SavedRow; changed: boolean }> {
  await assertReadable(ctx, caller, kind, messageId);
  const me = sql`${caller.id}::uuid`;
  const column = kind === 'channel' ? savedMessages.channelMessageId : savedMessages.directMessageId;
  let changed = false;
  try {
    changed = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from ${users} where id = ${me} for update`);
      const [existing] = await tx
        .select({ id: savedMessages.id })
        .from(savedMessages)
        .where(and(eq(savedMessages.userId, caller.id), eq(column, messageId)));
      if (existing) return false;
      const [count] = rowsOf<{ n: number | string }>(
        await tx.execute(sql`select count(*) as n from (${listableSql(me)}) x`),
      );
      if (Number(count?.n ?? 0) >= SAVED_PER_USER_MAX) throw conflict(SAVED_MESSAGES.tooMany);
      await tx.insert(savedMessages).values({
        userId: caller.id,
        channelMessageId: kind === 'channel' ? messageId : null,
        directMessageId: kind === 'direct' ? messageId : null,
        savedAt: ctx.now(),
      });
      return true;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const result = await ctx.db.execute(sql`select * from (${listableSql(me, { kind, messageId })}) x`);
  const [row] = rowsOf<SavedRow>(result);
  // Deleted or out of reach in the meantime.
  if (!row) throw notFound(SAVED_MESSAGES.messageNotFound);
  return { row, changed };
}

/** Removes the caller's saved message (their own rows only); answers whether there was one. */
export async function unsaveMessage(
  ctx: AppContext,
  caller: Caller,
  kind: SavedKind,
  messageId: string,
): Promise<boolean> {
  if (!isMessageId(messageId)) return false;
  const column = kind === 'channel' ? savedMessages.channelMessageId : savedMessages.directMessageId;
  const removed = await ctx.db
    .delete(savedMessages)
    .where(and(eq(savedMessages.userId, caller.id), eq(column, messageId)))
    .returning({ id: savedMessages.id });
  return removed.length > 0;
}
