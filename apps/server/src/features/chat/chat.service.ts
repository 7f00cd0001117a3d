import { CHAT_MESSAGES } from '@cohort/shared/chat';
import type { StoredFile } from '@cohort/shared/files';
import { channelMessageMayNotify } from '@cohort/shared/notifications';
import { and, asc, desc, eq, gt, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { preparedQuery, preparedSql } from '../../db/prepared.ts';
import { channelMessages, channelPins, channels, users } from '../../db/schema.ts';
import { outboxClaimedUntil, outboxPayload, queuedEventSql } from '../../events/event-outbox.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import {
  insertMessage,
  isMessageId,
  type MessageHandle,
  reactionsAndFiles,
  type StoredReaction,
} from '../messaging/messaging.access.ts';
import { channelReadableSql } from '../workspaces/workspaces.access.ts';
import { CHAT_ROLES } from './chat.policy.ts';

/** A stored channel message with its sender, as the presenter needs it. */
export interface StoredChannelMessage {
  id: string;
  channelId: string;
  seq: number;
  content: string;
  clientId: string;
  createdAt: Date;
  sender: { id: string; email: string; firstName: string; lastName: string };
  rev: number;
  editedAt: Date | null;
  deletedAt: Date | null;
  parentId: string | null;
  replyCount: number;
  lastReplyAt: Date | null;
  reactions: StoredReaction[];
  attachments: StoredFile[];
  kind: 'text' | 'system';
  /** Pinned to the channel: when and by whom (null when not pinned). */
  pin: { at: Date; by: Sender } | null;
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

/** Where a message goes, as resolved (and authorized) by `loadChannelForUser`. */
export interface ChannelTarget {
  channelId: string;
  workspaceId: string;
}

/**
 * The statement `postChannelMessage` runs, prepared (two shapes: with or without the outbox row of
 * its notifications). Every value is a placeholder, so its text never changes.
 */
const postMessageStatement = (notifies: boolean) =>
  preparedSql(
    notifies ? 'post_channel_message_notifying' : 'post_channel_message',
    () => sql`
    with bumped as (
      update ${channels} c set last_seq = c.last_seq + 1, last_rev = c.last_rev + ${sql.placeholder('revs')}::int
      where c.id = ${sql.placeholder('channelId')}::uuid and c.workspace_id = ${sql.placeholder('workspaceId')}::uuid
        and c.archived_at is null
        and ${channelReadableSql('c', sql`${sql.placeholder('senderId')}::uuid`, CHAT_ROLES)}
        and (${sql.placeholder('parentId')}::uuid is null or exists (
          select 1 from ${channelMessages} p
          where p.id = ${sql.placeholder('parentId')}::uuid and p.channel_id = c.id and p.parent_id is null
            and p.deleted_at is null
        ))
      returning c.last_seq, c.last_rev
    ),
    parent as (
      update ${channelMessages} p
      set reply_count = p.reply_count + 1, last_reply_at = ${sql.placeholder('now')}::timestamptz,
        rev = bumped.last_rev
      from bumped where p.id = ${sql.placeholder('parentId')}::uuid
      returning p.id
    ),
    inserted as (
      insert into ${channelMessages} (channel_id, seq, sender_id, content, client_id, created_at, rev, parent_id)
      select ${sql.placeholder('channelId')}::uuid, bumped.last_seq, ${sql.placeholder('senderId')}::uuid, ${sql.placeholder('content')}::text,
             ${sql.placeholder('clientId')}::uuid, ${sql.placeholder('now')}::timestamptz,
             bumped.last_rev - (${sql.placeholder('revs')}::int - 1), ${sql.placeholder('parentId')}::uuid
      from bumped
      returning id, seq, created_at, rev
    ),
    -- Notifications go through the event outbox, committed with the message (events/event-outbox.ts).
    queued as (${
      notifies
        ? queuedEventSql('messageCreated', sql`inserted`, sql`inserted.id`, {
            payload: sql.placeholder('payload'),
            claimedUntil: sql.placeholder('claimedUntil'),
            createdAt: sql.placeholder('now'),
          })
        : sql`select 1`
    })
    select id, seq, created_at, rev from inserted`,
  );
const postPlainMessage = postMessageStatement(false);
const postNotifyingMessage = postMessageStatement(true);

/**
 * Stores a message and assigns its seq in ONE statement, which also re-checks the sender's access:
 * the UPDATE bumps channels.last_seq only while the sender is a member of the channel's workspace
 * with a role in `CHAT_ROLES`, and listed in it when it is private (its row lock orders concurrent
 * senders), and the INSERT uses the new value. So a send is authorized atomically with its commit,
 * even when the caller's earlier resolution of the channel is a little old. A statement is atomic:
 * when the INSERT fails — the (sender, clientId) pair already exists — the bump is undone too and
 * seq stays gapless; such a resend answers the original message with `created: false`.
 *
 * Attachments (ids of files the sender uploaded for this channel) are linked in the same
 * transaction, so the message and its files commit together or not at all.
 *
 * Answers null when the guard refused (access gone, or the channel deleted).
 */
export async function postChannelMessage(
  ctx: AppContext,
  sender: Sender,
  target: ChannelTarget,
  input: {
    clientId: string;
    content: string;
    parentId?: string | undefined;
    attachments?: readonly string[] | undefined;
  },
): Promise<{ message: StoredChannelMessage; created: boolean } | null> {
  const now = ctx.now();
  const { channelId, workspaceId } = target;
  const parentId = input.parentId ?? null;
  if (parentId) await loadThreadParent(ctx, channelId, parentId);
  const fileIds = input.attachments ?? [];
  // Most messages notify nobody: those queue no outbox row (nothing to lose if this node dies).
  const notifies = channelMessageMayNotify(input.content, parentId);
  const insert = async (db: Db) => {
    const statement = notifies ? postNotifyingMessage : postPlainMessage;
    const result = await statement(db).execute({
      channelId,
      workspaceId,
      senderId: sender.id,
      parentId,
      // A thread reply takes two revs: the reply, and its parent (reply count and last reply time),
      // both changed in this statement so they commit together.
      revs: parentId ? 2 : 1,
      content: input.content,
      clientId: input.clientId,
      now: now.toISOString(),
      ...(notifies && {
        payload: outboxPayload('messageCreated', {
          kind: 'channel',
          workspaceId,
          channelId,
          parentId,
          senderId: sender.id,
          content: input.content,
        }),
        claimedUntil: outboxClaimedUntil(now),
      }),
    });
    return rowsOf<InsertedRow & { rev: number | string }>(result)[0] ?? null;
  };
  const inserted = await insertMessage(
    ctx,
    'channel',
    { fileIds, senderId: sender.id, conversation: { channelId } },
    insert,
  );
  if (inserted === null) return null;
  if (inserted !== 'resend') {
    const { row, attachments } = inserted;
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
        rev: Number(row.rev),
        editedAt: null,
        deletedAt: null,
        parentId,
        replyCount: 0,
        lastReplyAt: null,
        reactions: [],
        attachments,
        kind: 'text',
        pin: null,
      },
    };
  }
  const [original] = await withReactions(
    ctx,
    await selectChannelMessages(ctx)
      .where(and(eq(channelMessages.senderId, sender.id), eq(channelMessages.clientId, input.clientId)))
      .limit(1),
  );
  // A clientId names one message: reusing it for another channel is a client bug, not a resend.
  if (!original || original.channelId !== channelId) throw badRequest(CHAT_MESSAGES.invalidClientId);
  return { created: false, message: original };
}

/** A reply's parent: a live top-level message of the same channel (400 otherwise). */
async function loadThreadParent(ctx: AppContext, channelId: string, parentId: string) {
  const [parent] = await ctx.db
    .select({ id: channelMessages.id })
    .from(channelMessages)
    .where(
      and(
        eq(channelMessages.id, parentId),
        eq(channelMessages.channelId, channelId),
        isNull(channelMessages.parentId),
        isNull(channelMessages.deletedAt),
      ),
    )
    .limit(1);
  if (!parent) throw badRequest(CHAT_MESSAGES.invalidParent, 'parentId');
}

const pinner = alias(users, 'pinner');

export function selectChannelMessages(ctx: AppContext) {
  return selectChannelMessagesFrom(ctx.db);
}

function selectChannelMessagesFrom(db: Db) {
  return db
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
      rev: channelMessages.rev,
      editedAt: channelMessages.editedAt,
      deletedAt: channelMessages.deletedAt,
      parentId: channelMessages.parentId,
      replyCount: channelMessages.replyCount,
      lastReplyAt: channelMessages.lastReplyAt,
      kind: channelMessages.kind,
      // The pin, flat (left joins): folded into `pin` by withReactions.
      pinnedAt: channelPins.pinnedAt,
      pinnerId: pinner.id,
      pinnerEmail: pinner.email,
      pinnerFirstName: pinner.firstName,
      pinnerLastName: pinner.lastName,
    })
    .from(channelMessages)
    .innerJoin(users, eq(users.id, channelMessages.senderId))
    .leftJoin(channelPins, eq(channelPins.messageId, channelMessages.id))
    .leftJoin(pinner, eq(pinner.id, channelPins.pinnedBy))
    .$dynamic();
}

type MessageRow = Omit<StoredChannelMessage, 'reactions' | 'attachments' | 'pin'> & {
  pinnedAt: Date | null;
  pinnerId: string | null;
  pinnerEmail: string | null;
  pinnerFirstName: string | null;
  pinnerLastName: string | null;
};

/**
 * Attaches each message's reactions (who reacted, in reaction order) and files: two queries per page.
 * Folds the pin's columns into `pin`.
 */
export async function withReactions(ctx: AppContext, rows: MessageRow[]): Promise<StoredChannelMessage[]> {
  const folded = rows.map(
    ({ pinnedAt, pinnerId, pinnerEmail, pinnerFirstName, pinnerLastName, ...rest }) => ({
      ...rest,
      pin:
        pinnedAt && pinnerId
          ? {
              at: pinnedAt,
              by: {
                id: pinnerId,
                email: pinnerEmail ?? '',
                firstName: pinnerFirstName ?? '',
                lastName: pinnerLastName ?? '',
              },
            }
          : null,
    }),
  );
  return reactionsAndFiles(ctx, 'channel', folded);
}

/** The newest `limit` messages of a channel, newest first: the page every channel opens on. */
const newestChannelMessages = preparedQuery('newest_channel_messages', (db) =>
  selectChannelMessagesFrom(db)
    .where(eq(channelMessages.channelId, sql.placeholder('channelId')))
    .orderBy(desc(channelMessages.seq))
    .limit(sql.placeholder('limit')),
);

/**
 * A page of a channel's history by seq, oldest first. `after`: the oldest `limit` above it (backfill);
 * `changedAfter`: the oldest `limit` changes (inserts, edits, deletes, reactions, replies) by rev;
 * `around`: `limit` messages centred on that seq (half at or below it, half above);
 * otherwise the newest `limit` below `before` (or overall).
 */
export async function listChannelMessages(
  ctx: AppContext,
  channelId: string,
  page: {
    before?: number | undefined;
    after?: number | undefined;
    changedAfter?: number | undefined;
    around?: number | undefined;
    limit: number;
  },
): Promise<StoredChannelMessage[]> {
  if (page.around !== undefined) {
    // The target and the older half at or below it, then the newer half above it.
    const older = await selectChannelMessages(ctx)
      .where(and(eq(channelMessages.channelId, channelId), lte(channelMessages.seq, page.around)))
      .orderBy(desc(channelMessages.seq))
      .limit(Math.ceil(page.limit / 2));
    const newer = await selectChannelMessages(ctx)
      .where(and(eq(channelMessages.channelId, channelId), gt(channelMessages.seq, page.around)))
      .orderBy(asc(channelMessages.seq))
      .limit(Math.floor(page.limit / 2));
    return withReactions(ctx, [...older.reverse(), ...newer]);
  }
  if (page.changedAfter !== undefined) {
    const changed = await selectChannelMessages(ctx)
      .where(and(eq(channelMessages.channelId, channelId), gt(channelMessages.rev, page.changedAfter)))
      .orderBy(asc(channelMessages.rev))
      .limit(page.limit);
    return withReactions(ctx, changed);
  }
  if (page.after === undefined && page.before === undefined) {
    const newest = await newestChannelMessages(ctx.db).execute({ channelId, limit: page.limit });
    return withReactions(ctx, newest.reverse());
  }
  const conditions: SQL[] = [eq(channelMessages.channelId, channelId)];
  if (page.after !== undefined) conditions.push(gt(channelMessages.seq, page.after));
  if (page.before !== undefined) conditions.push(lt(channelMessages.seq, page.before));
  const query = selectChannelMessages(ctx).where(and(...conditions));
  if (page.after !== undefined) {
    return withReactions(ctx, await query.orderBy(asc(channelMessages.seq)).limit(page.limit));
  }
  const newest = await query.orderBy(desc(channelMessages.seq)).limit(page.limit);
  return withReactions(ctx, newest.reverse());
}

/** A thread: its replies, oldest first (at most `limit`). 404 unless the parent is in the channel. */
export async function listThread(
  ctx: AppContext,
  channelId: string,
  parentId: string,
  limit: number,
): Promise<StoredChannelMessage[]> {
  await loadMessageInChannel(ctx, channelId, parentId);
  const rows = await selectChannelMessages(ctx)
    .where(and(eq(channelMessages.channelId, channelId), eq(channelMessages.parentId, parentId)))
    .orderBy(asc(channelMessages.seq))
    .limit(limit);
  return withReactions(ctx, rows);
}

/** One message of the channel with its reactions; 404 when it is in another channel or gone. */
export async function loadMessageInChannel(
  ctx: AppContext,
  channelId: string,
  messageId: string,
): Promise<StoredChannelMessage> {
  if (!isMessageId(messageId)) throw notFound(CHAT_MESSAGES.messageNotFound);
  const [row] = await selectChannelMessages(ctx)
    .where(and(eq(channelMessages.id, messageId), eq(channelMessages.channelId, channelId)))
    .limit(1);
  if (!row) throw notFound(CHAT_MESSAGES.messageNotFound);
  const [message] = await withReactions(ctx, [row]);
  return message as StoredChannelMessage;
}

/**
 * A message of the channel for the messaging core: loaded within the channel (404 otherwise), and
 * changed with the channel's next rev in one statement (the channel row lock orders changes, so a
 * client holding everything up to rev R misses nothing above R).
 */
export function channelMessageHandle(
  ctx: AppContext,
  channelId: string,
  messageId: string,
): MessageHandle<StoredChannelMessage> {
  return {
    kind: 'channel',
    load: () => loadMessageInChannel(ctx, channelId, messageId),
    change: async (set) => {
      await ctx.db.execute(sql`
        with bumped as (
          update ${channels} set last_rev = last_rev + 1 where id = ${channelId}::uuid returning last_rev
        )
        update ${channelMessages} m set rev = bumped.last_rev, ${set}
        from bumped where m.id = ${messageId}::uuid and m.channel_id = ${channelId}::uuid`);
    },
  };
}

/** Ids of a workspace's channels (whose rooms a removed member must leave). */
export async function workspaceChannelIds(ctx: AppContext, workspaceId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.workspaceId, workspaceId));
  return rows.map((r) => r.id);
}

/**
 * Stores an announcement ("Ada renamed the channel to …", a system message) from `actorId`, with the
 * channel's next seq and rev, whatever the channel's state (the announcement of archiving comes after
 * the archiving). The service that made the change authorized it; nothing here is a user's input.
 * Answers the stored message, or null when the channel is gone.
 */
export async function postSystemMessage(
  ctx: AppContext,
  channelId: string,
  actorId: string,
  content: string,
): Promise<StoredChannelMessage | null> {
  const now = ctx.now();
  const result = await ctx.db.execute(sql`
    with bumped as (
      update ${channels} c set last_seq = c.last_seq + 1, last_rev = c.last_rev + 1
      where c.id = ${channelId}::uuid
      returning c.last_seq, c.last_rev
    )
    insert into ${channelMessages} (channel_id, seq, sender_id, content, client_id, created_at, rev, kind)
    select ${channelId}::uuid, bumped.last_seq, ${actorId}::uuid, ${content}, gen_random_uuid(),
           ${now.toISOString()}::timestamptz, bumped.last_rev, 'system'
    from bumped
    returning id`);
  const [row] = rowsOf<{ id: string }>(result);
  if (!row) return null;
  return loadMessageInChannel(ctx, channelId, row.id);
}

/** Who a system message names (the actor), or an empty name when the account is gone. */
export async function loadSender(ctx: AppContext, userId: string): Promise<Sender | null> {
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** A channel's row by id, for the events that follow a change (null once deleted). */
export async function loadChannelRow(ctx: AppContext, channelId: string) {
  const [row] = await ctx.db.select().from(channels).where(eq(channels.id, channelId));
  return row ?? null;
}
