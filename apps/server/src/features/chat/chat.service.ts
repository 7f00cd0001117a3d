import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { and, asc, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { channelMessages, channels, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, notFound } from '../../http/errors.ts';

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

/**
 * Stores a message and assigns its seq in ONE statement: the UPDATE bumps channels.last_seq (its
 * row lock orders concurrent senders) and the INSERT uses the new value. A statement is atomic, so
 * when the INSERT fails — the (sender, clientId) pair already exists — the bump is undone too and
 * seq stays gapless. Such a resend answers the original message with `created: false`.
 */
export async function postChannelMessage(
  ctx: AppContext,
  sender: Sender,
  channelId: string,
  input: { clientId: string; content: string },
): Promise<{ message: StoredChannelMessage; created: boolean }> {
  const now = ctx.now();
  try {
    const result = await ctx.db.execute(sql`
      with bumped as (
        update ${channels} set last_seq = last_seq + 1 where id = ${channelId}::uuid returning last_seq
      )
      insert into ${channelMessages} (channel_id, seq, sender_id, content, client_id, created_at)
      select ${channelId}::uuid, bumped.last_seq, ${sender.id}::uuid, ${input.content},
             ${input.clientId}::uuid, ${now.toISOString()}::timestamptz
      from bumped
      returning id, seq, created_at`);
    const [row] = rowsOf<InsertedRow>(result);
    // No channel row to bump: it was deleted since the caller was authorized.
    if (!row) throw notFound(CHAT_MESSAGES.channelNotFound);
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
