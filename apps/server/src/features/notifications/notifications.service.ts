import {
  channelMessageMayNotify,
  type ListNotificationsQuery,
  type MentionCounts,
  parseMentions,
} from '@cohort/shared/notifications';
import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext, MessageCreated } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import {
  channelMessages,
  channels,
  directMessages,
  messageNotifications,
  users,
  workspaceInvitations,
  workspaces,
} from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { mutedUserIds } from '../reads/reads.access.ts';
import {
  markTaskNotificationsReadForUser,
  type TaskNotificationFeedRow,
  taskNotificationsForFeed,
  unreadTaskNotificationCount,
} from '../tasks/tasks.access.ts';
import {
  channelReadableSql,
  channelReaderIdsSql,
  twoFactorAdmitsSql,
} from '../workspaces/workspaces.access.ts';

export interface Person {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** A message notification with what presenting it needs (excerpt, link). */
export interface MessageNotificationView {
  id: string;
  kind: 'mention' | 'direct' | 'thread' | 'invitation' | 'missed_call';
  createdAt: Date;
  readAt: Date | null;
  actor: Person | null;
  workspaceId: string | null;
  channelId: string | null;
  channelMessageId: string | null;
  parentId: string | null;
  directMessageId: string | null;
  content: string;
  /** For `invitation`: the pending invitation it announces. */
  invitation: { id: string; workspaceName: string; role: 'viewer' | 'editor' | 'admin' } | null;
}

export type FeedItem =
  | { source: 'message'; view: MessageNotificationView }
  | { source: 'task'; view: TaskNotificationFeedRow };

/**
 * Whom a committed channel message notifies, and why (one notification per person and message; a
 * direct mention wins over @channel, which wins over a thread reply). Only people who can read the
 * channel now are candidates; muting the channel silences @channel and thread replies, not a mention
 * by name.
 */
async function channelRecipients(
  ctx: AppContext,
  event: Extract<MessageCreated, { kind: 'channel' }>,
): Promise<Map<string, 'mention' | 'thread'>> {
  if (!channelMessageMayNotify(event.content, event.parentId)) return new Map();
  const mentions = parseMentions(event.content);
  const followers = event.parentId
    ? sql`select ${channelMessages.senderId} from ${channelMessages}
          where ${channelMessages.id} = ${event.parentId}::uuid or ${channelMessages.parentId} = ${event.parentId}::uuid`
    : null;
  // Readers of the channel (workspace members; listed ones for a private channel), narrowed to the
  // mentioned and the thread's followers unless the whole channel was mentioned.
  const wanted: SQL[] = [];
  if (mentions.emails.length > 0) {
    wanted.push(
      sql`lower(u.email) in (${sql.join(
        mentions.emails.map((e) => sql`${e}`),
        sql`, `,
      )})`,
    );
  }
  if (followers) wanted.push(sql`u.id in (${followers})`);
  const narrow = mentions.channel ? sql`true` : sql.join(wanted, sql` or `);
  const result = await ctx.db.execute(sql`
    select u.id, lower(u.email) as email,
      ${followers ? sql`u.id in (${followers})` : sql`false`} as follower
    from ${users} u
    where u.id in (${channelReaderIdsSql(sql`${event.channelId}::uuid`)})
      and u.id <> ${event.senderId}::uuid
      and (${narrow})`);
  const readers = rowsOf<{ id: string; email: string; follower: boolean }>(result);
  const muted = await mutedUserIds(
    ctx,
    event.channelId,
    readers.map((r) => r.id),
  );
  const named = new Set(mentions.emails);
  const out = new Map<string, 'mention' | 'thread'>();
  for (const r of readers) {
    if (named.has(r.email)) out.set(r.id, 'mention');
    else if (muted.has(r.id)) continue;
    else if (mentions.channel) out.set(r.id, 'mention');
    else if (r.follower) out.set(r.id, 'thread');
  }
  return out;
}

/**
 * Creates the notifications of a message that has just committed (called once per stored message:
 * a resent clientId is not a new message) and answers them for the live push.
 */
export async function createMessageNotifications(
  ctx: AppContext,
  event: MessageCreated,
): Promise<Array<{ userId: string; view: MessageNotificationView }>> {
  const recipients =
    event.kind === 'direct'
      ? new Map<string, 'mention' | 'direct' | 'thread'>([[event.receiverId, 'direct']])
      : await channelRecipients(ctx, event);
  if (recipients.size === 0) return [];
  const now = ctx.now();
  const rows = await ctx.db
    .insert(messageNotifications)
    .values(
      [...recipients].map(([userId, kind]) => ({
        userId,
        kind,
        actorId: event.senderId,
        channelId: event.kind === 'channel' ? event.channelId : null,
        channelMessageId: event.kind === 'channel' ? event.messageId : null,
        directMessageId: event.kind === 'direct' ? event.messageId : null,
        createdAt: now,
      })),
    )
    .returning();
  const [actor] = await ctx.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, event.senderId));
  return rows.map((row) => ({
    userId: row.userId,
    view: {
      id: row.id,
      kind: row.kind,
      createdAt: row.createdAt,
      readAt: null,
      actor: actor ?? null,
      workspaceId: event.kind === 'channel' ? event.workspaceId : null,
      channelId: row.channelId,
      channelMessageId: row.channelMessageId,
      parentId: event.kind === 'channel' ? event.parentId : null,
      directMessageId: row.directMessageId,
      content: event.content,
      invitation: null,
    },
  }));
}

const actorUser = alias(users, 'actor');
const invitationWorkspace = alias(workspaces, 'invitation_workspace');

/**
 * Only what the user can still read: a channel notification while they may read the channel (a
 * removed member sees none of that workspace), and none for a deleted message. An invitation's
 * notification only while it can be accepted: pending (accepting, declining or revoking deletes it),
 * unexpired, and addressed to the user's current, verified address.
 */
const readableBy = (userId: string | SQL, now: Date) => sql`(
  (${messageNotifications.channelId} is null or (
    ${channelReadableSql('channels', sql`${userId}::uuid`)}
    and ${twoFactorAdmitsSql(sql`${channels.workspaceId}`, sql`${userId}::uuid`)}
  ))
  and ${channelMessages.deletedAt} is null and ${directMessages.deletedAt} is null
  and (${messageNotifications.invitationId} is null or exists (
    select 1 from ${workspaceInvitations} wi join ${users} iu on iu.email = wi.email
    where wi.id = ${messageNotifications.invitationId} and iu.id = ${userId}::uuid
      and iu.email_verified_at is not null and wi.expires_at > ${now.toISOString()}::timestamptz
  ))
)`;

function messageFeedQuery(ctx: AppContext) {
  return ctx.db
    .select({
      id: messageNotifications.id,
      userId: messageNotifications.userId,
      kind: messageNotifications.kind,
      createdAt: messageNotifications.createdAt,
      readAt: messageNotifications.readAt,
      actorId: actorUser.id,
      actorEmail: actorUser.email,
      actorFirst: actorUser.firstName,
      actorLast: actorUser.lastName,
      workspaceId: channels.workspaceId,
      channelId: messageNotifications.channelId,
      channelMessageId: messageNotifications.channelMessageId,
      parentId: channelMessages.parentId,
      directMessageId: messageNotifications.directMessageId,
      channelContent: channelMessages.content,
      directContent: directMessages.content,
      invitationId: workspaceInvitations.id,
      invitationRole: workspaceInvitations.role,
      invitationWorkspace: invitationWorkspace.name,
    })
    .from(messageNotifications)
    .leftJoin(actorUser, eq(actorUser.id, messageNotifications.actorId))
    .leftJoin(channels, eq(channels.id, messageNotifications.channelId))
    .leftJoin(channelMessages, eq(channelMessages.id, messageNotifications.channelMessageId))
    .leftJoin(directMessages, eq(directMessages.id, messageNotifications.directMessageId))
    .leftJoin(workspaceInvitations, eq(workspaceInvitations.id, messageNotifications.invitationId))
    .leftJoin(invitationWorkspace, eq(invitationWorkspace.id, workspaceInvitations.workspaceId))
    .$dynamic();
}

type FeedRow = Awaited<ReturnType<ReturnType<typeof messageFeedQuery>['execute']>>[number];

const toView = (r: FeedRow): MessageNotificationView => ({
  id: r.id,
  kind: r.kind,
  createdAt: r.createdAt,
  readAt: r.readAt,
  actor: r.actorId
    ? { id: r.actorId, email: r.actorEmail ?? '', firstName: r.actorFirst ?? '', lastName: r.actorLast ?? '' }
    : null,
  workspaceId: r.workspaceId,
  channelId: r.channelId,
  channelMessageId: r.channelMessageId,
  parentId: r.parentId,
  directMessageId: r.directMessageId,
  content: r.channelContent ?? r.directContent ?? '',
  invitation:
    r.invitationId && r.invitationRole
      ? { id: r.invitationId, workspaceName: r.invitationWorkspace ?? '', role: r.invitationRole }
      : null,
});

/**
 * The given notifications with their recipients, for a live push after the commit that created them
 * (only those their recipient may read, as in the feed).
 */
export async function loadMessageNotifications(
  ctx: AppContext,
  ids: readonly string[],
): Promise<Array<{ userId: string; view: MessageNotificationView }>> {
  if (ids.length === 0) return [];
  const rows = await messageFeedQuery(ctx).where(
    and(
      inArray(messageNotifications.id, [...ids]),
      readableBy(sql`${messageNotifications.userId}`, ctx.now()),
    ),
  );
  return rows.map((r) => ({ userId: r.userId, view: toView(r) }));
}

/** Cursor: the last item's creation time and id, so pages never skip or repeat an item. */
const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
const CURSOR_RE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|([0-9a-f-]{36})$/;
function decodeCursor(cursor: string | undefined) {
  if (!cursor) return null;
  const match = CURSOR_RE.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw badRequest('Invalid cursor', 'cursor');
  return { createdAt: new Date(match[1] as string), id: match[2] as string };
}

const newerFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The caller's notifications (message and task ones merged), newest first, a page at a time. */
export async function listNotifications(
  ctx: AppContext,
  userId: string,
  query: { cursor?: string | undefined; limit: number; unread?: ListNotificationsQuery['unread'] },
): Promise<{ items: FeedItem[]; nextCursor: string | null; unreadCount: number }> {
  const before = decodeCursor(query.cursor);
  const unreadOnly = query.unread === 'true';
  const conditions: (SQL | undefined)[] = [
    eq(messageNotifications.userId, userId),
    readableBy(userId, ctx.now()),
  ];
  if (unreadOnly) conditions.push(isNull(messageNotifications.readAt));
  if (before) {
    conditions.push(
      sql`(${messageNotifications.createdAt}, ${messageNotifications.id}) < (${before.createdAt.toISOString()}::timestamptz, ${before.id}::uuid)`,
    );
  }
  // One more than a page from each source tells whether an older page exists.
  const [messageRows, taskRows, unreadCount] = await Promise.all([
    messageFeedQuery(ctx)
      .where(and(...conditions))
      .orderBy(desc(messageNotifications.createdAt), desc(messageNotifications.id))
      .limit(query.limit + 1),
    taskNotificationsForFeed(ctx, userId, { before, limit: query.limit + 1, unreadOnly }),
    unreadCountOf(ctx, userId),
  ]);
  const merged: FeedItem[] = [
    ...messageRows.map((r) => ({ source: 'message' as const, view: toView(r) })),
    ...taskRows.map((view) => ({ source: 'task' as const, view })),
  ].sort((a, b) => newerFirst(a.view, b.view));
  const items = merged.slice(0, query.limit);
  const last = items.at(-1);
  const nextCursor =
    merged.length > query.limit && last ? encodeCursor(last.view.createdAt, last.view.id) : null;
  return { items, nextCursor, unreadCount };
}

async function unreadCountOf(ctx: AppContext, userId: string): Promise<number> {
  const [[row], tasks] = await Promise.all([
    ctx.db
      .select({ n: count() })
      .from(messageNotifications)
      .leftJoin(channels, eq(channels.id, messageNotifications.channelId))
      .leftJoin(channelMessages, eq(channelMessages.id, messageNotifications.channelMessageId))
      .leftJoin(directMessages, eq(directMessages.id, messageNotifications.directMessageId))
      .where(
        and(
          eq(messageNotifications.userId, userId),
          isNull(messageNotifications.readAt),
          readableBy(userId, ctx.now()),
        ),
      ),
    unreadTaskNotificationCount(ctx, userId),
  ]);
  return Number(row?.n ?? 0) + tasks;
}

/** What the caller read: notifications by id, a channel's mentions, or a direct conversation up to a seq. */
export type ReadNotifications =
  | { ids: readonly string[] }
  | { channelId: string }
  | { directConversationId: string; upToSeq: number };

function readNotificationsWhere(target: ReadNotifications): SQL | undefined {
  if ('ids' in target) return inArray(messageNotifications.id, [...target.ids]);
  if ('channelId' in target)
    return and(
      eq(messageNotifications.channelId, target.channelId),
      eq(messageNotifications.kind, 'mention'),
    );
  const covered = sql`(select ${directMessages.id} from ${directMessages}
    where ${directMessages.conversationId} = ${target.directConversationId}
      and ${directMessages.seq} <= ${target.upToSeq})`;
  return and(eq(messageNotifications.kind, 'direct'), inArray(messageNotifications.directMessageId, covered));
}

/**
 * Marks the caller's notifications read: the given ids (ids that are not the caller's change nothing
 * and say nothing), a channel's mentions (the channel was opened), a direct conversation's messages
 * up to its new read mark (as opening a channel reads its mentions), or all of them.
 */
export async function markNotificationsRead(
  ctx: AppContext,
  userId: string,
  target: ReadNotifications | 'all',
): Promise<number> {
  const now = ctx.now();
  const mine = [eq(messageNotifications.userId, userId), isNull(messageNotifications.readAt)];
  const which = target === 'all' ? undefined : readNotificationsWhere(target);
  const changed = await ctx.db
    .update(messageNotifications)
    .set({ readAt: now })
    .where(and(...mine, which))
    .returning({ id: messageNotifications.id });
  let tasks = 0;
  if (target === 'all') tasks = await markTaskNotificationsReadForUser(ctx, userId, 'all');
  else if ('ids' in target) tasks = await markTaskNotificationsReadForUser(ctx, userId, target.ids);
  return changed.length + tasks;
}

/** Unread mentions per channel of the workspace that the caller can read. */
export async function mentionCountsOf(
  ctx: AppContext,
  userId: string,
  workspaceId: string,
): Promise<MentionCounts> {
  const rows = await ctx.db
    .select({ channelId: channels.id, count: count() })
    .from(messageNotifications)
    .innerJoin(channels, eq(channels.id, messageNotifications.channelId))
    .leftJoin(channelMessages, eq(channelMessages.id, messageNotifications.channelMessageId))
    .leftJoin(directMessages, eq(directMessages.id, messageNotifications.directMessageId))
    .where(
      and(
        eq(messageNotifications.userId, userId),
        eq(messageNotifications.kind, 'mention'),
        isNull(messageNotifications.readAt),
        eq(channels.workspaceId, workspaceId),
        readableBy(userId, ctx.now()),
      ),
    )
    .groupBy(channels.id);
  return rows.map((r) => ({ channelId: r.channelId, count: Number(r.count) }));
}
