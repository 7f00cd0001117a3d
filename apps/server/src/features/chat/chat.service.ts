import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { and, asc, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { channelMembers, channelMessages, channels, users, workspaceMembers } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest } from '../../http/errors.ts';

/** A stored channel message with its sender, as the presenter needs it. */
export interface StoredChannelMessage {
  id: string;
  channelId: string;
  seq: number;
  content: string;
  clientId: string;
  createdAt: Date;
  sender: { id: string; email: string; firstName: string; lastName: string };
}

export interface Sender {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

interface InsertedRow {
  id: string;
  seq: number | string | bigint;
  created_at: Date | string;
}

/** `execute` answers `{rows}` on both drivers; bigint comes back as a string from pg. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Where a message goes, as resolved (and authorized) by `loadChannelForUser`. */
export interface ChannelTarget {
  channelId: string;
  workspaceId: string;
}

/**
 * Stores a message and assigns its seq in ONE statement, which also re-checks the sender's access:
 * the UPDATE bumps channels.last_seq only while the sender is a member of the channel's workspace
 * with a role in `chatRoles`, and listed in it when it is private (its row lock orders concurrent
 * senders), and the INSERT uses the new value. So a send is authorized atomically with its commit,
 * even when the caller's earlier resolution of the channel is a little old. A statement is atomic:
 * when the INSERT fails — the (sender, clientId) pair already exists — the bump is undone too and
 * seq stays gapless; such a resend answers the original message with `created: false`.
 *
 * Answers null when the guard refused (access gone, or the channel deleted).
 */
export async function postChannelMessage(
  ctx: AppContext,
  sender: Sender,
  target: ChannelTarget,
  input: { clientId: string; content: string },
  chatRoles: readonly string[],
): Promise<{ message: StoredChannelMessage; created: boolean } | null> {
  const now = ctx.now();
  const { channelId, workspaceId } = target;
  try {
    const result = await ctx.db.execute(sql`
      with bumped as (
        update ${channels} c set last_seq = c.last_seq + 1
        where c.id = ${channelId}::uuid and c.workspace_id = ${workspaceId}::uuid
          and exists (
            select 1 from ${workspaceMembers} m
            where m.workspace_id = c.workspace_id and m.user_id = ${sender.id}::uuid
              and m.role in (${sql.join(
                chatRoles.map((r) => sql`${r}`),
                sql`, `,
              )})
          )
          and (not c.is_private or exists (
            select 1 from ${channelMembers} cm where cm.channel_id = c.id and cm.user_id = ${sender.id}::uuid
          ))
        returning c.last_seq
      )
      insert into ${channelMessages} (channel_id, seq, sender_id, content, client_id, created_at)
      select ${channelId}::uuid, bumped.last_seq, ${sender.id}::uuid, ${input.content},
             ${input.clientId}::uuid, ${now.toISOString()}::timestamptz
      from bumped
      returning id, seq, created_at`);
    const [row] = rowsOf<InsertedRow>(result);
    if (!row) return null;
    return {
      created: true,
      message: {
        id: row.id,
        channelId,
        seq: Number(row.seq),
        content: input.content,
        clientId: input.clientId,
        createdAt: new Date(row.created_at),
        sender,
      },
    };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const [original] = await selectMessages(ctx)
    .where(and(eq(channelMessages.senderId, sender.id), eq(channelMessages.clientId, input.clientId)))
    .limit(1);
  // A clientId names one message: reusing it for another channel is a client bug, not a resend.
  if (!original || original.channelId !== channelId) throw badRequest(CHAT_MESSAGES.invalidClientId);
  return { created: false, message: original };
}

function selectMessages(ctx: AppContext) {
  return ctx.db
    .select({
      id: channelMessages.id,
      channelId: channelMessages.channelId,
      seq: channelMessages.seq,
      content: channelMessages.content,
      clientId: channelMessages.clientId,
      createdAt: channelMessages.createdAt,
      sender: {
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      },
    })
    .from(channelMessages)
    .innerJoin(users, eq(users.id, channelMessages.senderId))
    .$dynamic();
}

/**
 * A page of a channel's history by seq, oldest first. `after`: the oldest `limit` above it (backfill);
 * otherwise the newest `limit` below `before` (or overall).
 */
export async function listChannelMessages(
  ctx: AppContext,
  channelId: string,
  page: { before?: number | undefined; after?: number | undefined; limit: number },
): Promise<StoredChannelMessage[]> {
  const conditions: SQL[] = [eq(channelMessages.channelId, channelId)];
  if (page.after !== undefined) conditions.push(gt(channelMessages.seq, page.after));
  if (page.before !== undefined) conditions.push(lt(channelMessages.seq, page.before));
  const query = selectMessages(ctx).where(and(...conditions));
  if (page.after !== undefined) {
    return query.orderBy(asc(channelMessages.seq)).limit(page.limit);
  }
  const newest = await query.orderBy(desc(channelMessages.seq)).limit(page.limit);
  return newest.reverse();
}

/** Ids of a workspace's channels (whose rooms a removed member must leave). */
export async function workspaceChannelIds(ctx: AppContext, workspaceId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.workspaceId, workspaceId));
  return rows.map((r) => r.id);
}
