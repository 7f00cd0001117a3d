import { CHANNEL_MESSAGES, type ChannelChange } from '@cohort/shared/channels';
import { displayName } from '@cohort/shared/names';
import {
  type createChannelBody,
  type updateChannelBody,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
} from '@cohort/shared/workspaces';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import {
  channelMembers,
  channelStars,
  channels,
  users,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import {
  type Caller,
  type ChannelAccess,
  type ChannelRow,
  channelMemberIds,
  channelVisibleSql,
  isUuid,
  isWorkspaceMemberSql,
  listReadableChannels,
  type WorkspaceRow,
  workspaceNotFound,
} from './workspaces.access.ts';
import { emitMembershipEvent } from './workspaces.events.ts';

type CreateChannelData = z.output<typeof createChannelBody>;
type UpdateChannelData = z.output<typeof updateChannelBody>;

export interface ChannelView {
  channel: ChannelRow;
  memberIds: string[];
  /** The caller is a member (joined an open channel, listed in a private one). */
  joined: boolean;
  starred: boolean;
}

async function withNameConflict<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(WORKSPACE_MESSAGES.channelNameTaken);
    throw err;
  }
}

async function assertChannelNameFree(ctx: AppContext, workspaceId: string, name: string, exceptId?: string) {
  const [taken] = await ctx.db
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.workspaceId, workspaceId), sql`lower(${channels.name}) = lower(${name})`));
  if (taken && taken.id !== exceptId) throw conflict(WORKSPACE_MESSAGES.channelNameTaken);
}

export async function listChannels(
  ctx: AppContext,
  caller: Caller,
  workspace: WorkspaceRow,
): Promise<ChannelView[]> {
  return channelViews(ctx, caller, await listReadableChannels(ctx, caller, workspace.id));
}

/** The channels as the caller sees them: members, and whether the caller joined and starred each. */
export async function channelViews(
  ctx: AppContext,
  caller: Caller,
  rows: ChannelRow[],
): Promise<ChannelView[]> {
  const channelIds = rows.map((c) => c.id);
  const [ids, starred] = await Promise.all([
    channelMemberIds(ctx, channelIds),
    starredChannelIds(ctx, caller.id, channelIds),
  ]);
  return rows.map((channel) => {
    const memberIds = ids.get(channel.id) ?? [];
    return { channel, memberIds, joined: memberIds.includes(caller.id), starred: starred.has(channel.id) };
  });
}

export async function getChannel(ctx: AppContext, caller: Caller, channel: ChannelRow): Promise<ChannelView> {
  const [view] = await channelViews(ctx, caller, [channel]);
  if (!view) throw notFound(WORKSPACE_MESSAGES.channelNotFound);
  return view;
}

async function starredChannelIds(ctx: AppContext, userId: string, channelIds: string[]) {
  if (channelIds.length === 0) return new Set<string>();
  const rows = await ctx.db
    .select({ channelId: channelStars.channelId })
    .from(channelStars)
    .where(and(eq(channelStars.userId, userId), inArray(channelStars.channelId, channelIds)));
  return new Set(rows.map((r) => r.channelId));
}

/**
 * Creates a channel listing the caller and the given members, who must all be members of this
 * workspace: an id from elsewhere is a 404 and nothing is created.
 */
export async function createChannel(
  ctx: AppContext,
  caller: Caller,
  workspace: WorkspaceRow,
  body: CreateChannelData,
): Promise<ChannelView> {
  const wanted = [...new Set([caller.id, ...body.members])];
  await assertChannelNameFree(ctx, workspace.id, body.name);
  const created = await withNameConflict(() =>
    ctx.db.transaction(async (tx) => {
      // Shares the workspace lock with member removal, so nobody is removed between check and insert.
      const [locked] = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.id, workspace.id))
        .for('share');
      if (!locked) throw workspaceNotFound();
      const present = await tx
        .select({ userId: workspaceMembers.userId })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), inArray(workspaceMembers.userId, wanted)));
      if (present.length !== wanted.length)
        throw new HttpError(404, WORKSPACE_MESSAGES.channelMemberNotFound, 'members');
      const now = ctx.now();
      const [channel] = await tx
        .insert(channels)
        .values({
          workspaceId: workspace.id,
          name: body.name,
          description: body.description,
          isPrivate: body.private,
          createdBy: caller.id,
          createdAt: now,
        })
        .returning();
      if (!channel) throw new Error('insert returned no row');
      await tx
        .insert(channelMembers)
        .values(wanted.map((userId) => ({ channelId: channel.id, userId, addedAt: now })));
      return channel;
    }),
  );
  return getChannel(ctx, caller, created);
}

/**
 * Renames, re-describes or sets the topic (the route decided who may change what). An archived
 * channel is read-only (409). Each real change is announced in the channel, in this order.
 */
export async function updateChannel(
  ctx: AppContext,
  caller: Caller,
  channel: ChannelRow,
  patch: UpdateChannelData,
): Promise<ChannelRow> {
  if (channel.archivedAt) throw conflict(CHANNEL_MESSAGES.archived);
  const set: Partial<Pick<ChannelRow, 'name' | 'description' | 'topic'>> = {};
  if (patch.name !== undefined && patch.name !== channel.name) set.name = patch.name;
  if (patch.description !== undefined && patch.description !== channel.description)
    set.description = patch.description;
  if (patch.topic !== undefined && patch.topic !== channel.topic) set.topic = patch.topic;
  if (Object.keys(set).length === 0) return channel;
  if (set.name !== undefined) await assertChannelNameFree(ctx, channel.workspaceId, set.name, channel.id);
  const [row] = await withNameConflict(() =>
    ctx.db
      .update(channels)
      .set(set)
      .where(and(eq(channels.id, channel.id), isNull(channels.archivedAt)))
      .returning(),
  );
  if (!row) throw conflict(CHANNEL_MESSAGES.archived);
  const changes: ChannelChange[] = [];
  // A case-only rename is still a rename.
  if (set.name !== undefined) changes.push({ kind: 'renamed', name: row.name });
  if (set.topic !== undefined) changes.push({ kind: 'topic', topic: row.topic });
  if (set.description !== undefined) changes.push({ kind: 'described' });
  announceChannelChange(ctx, row, caller.id, changes);
  return row;
}

/** Archives (`archived`) or unarchives; 409 when it already is in that state. */
export async function setChannelArchived(
  ctx: AppContext,
  caller: Caller,
  channel: ChannelRow,
  archived: boolean,
): Promise<ChannelRow> {
  const [row] = await ctx.db
    .update(channels)
    .set(archived ? { archivedAt: ctx.now(), archivedBy: caller.id } : { archivedAt: null, archivedBy: null })
    .where(
      and(
        eq(channels.id, channel.id),
        archived ? isNull(channels.archivedAt) : sql`${channels.archivedAt} is not null`,
      ),
    )
    .returning();
  if (!row) throw conflict(archived ? CHANNEL_MESSAGES.alreadyArchived : CHANNEL_MESSAGES.notArchived);
  announceChannelChange(ctx, row, caller.id, [{ kind: archived ? 'archived' : 'unarchived' }]);
  return row;
}

/**
 * Joins an open channel (idempotent: joining twice changes and announces nothing). A private
 * channel the caller can read is one they are already in; an archived one cannot be joined (409).
 * The insert re-checks workspace membership, so a member removed a moment ago joins nothing.
 */
export async function joinChannel(
  ctx: AppContext,
  caller: Caller,
  access: ChannelAccess,
): Promise<ChannelRow> {
  const { channel } = access;
  if (access.isChannelMember) return channel;
  if (channel.isPrivate) throw badRequest(CHANNEL_MESSAGES.openOnly);
  if (channel.archivedAt) throw conflict(CHANNEL_MESSAGES.archived);
  const result = await ctx.db.execute(sql`
    insert into ${channelMembers} (channel_id, user_id, created_at)
    select ${channel.id}::uuid, ${caller.id}::uuid, ${ctx.now().toISOString()}::timestamptz
    where ${isWorkspaceMemberSql(sql`${channel.workspaceId}::uuid`, sql`${caller.id}::uuid`)}
    on conflict do nothing
    returning user_id`);
  if (rowsOf(result).length > 0) {
    announceChannelChange(ctx, channel, caller.id, [{ kind: 'joined' }], { concerned: [caller.id] });
  }
  return channel;
}

/**
 * Leaves a channel (idempotent). Leaving a private channel ends reading it; its last member cannot
 * leave (nobody could ever reach it again: admins who are not listed do not see it), 409.
 */
export async function leaveChannel(ctx: AppContext, caller: Caller, access: ChannelAccess): Promise<void> {
  const { channel } = access;
  if (!access.isChannelMember) return;
  const left = await ctx.db.transaction(async (tx) => {
    // The channel row lock orders two last members leaving at once.
    await tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channel.id)).for('update');
    if (channel.isPrivate) {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(channelMembers)
        .where(eq(channelMembers.channelId, channel.id));
      if (n <= 1) throw conflict(CHANNEL_MESSAGES.lastMember);
    }
    return tx
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, channel.id), eq(channelMembers.userId, caller.id)))
      .returning({ userId: channelMembers.userId });
  });
  if (left.length === 0) return;
  announceChannelChange(ctx, channel, caller.id, [{ kind: 'left' }], {
    concerned: [caller.id],
    lostAccess: channel.isPrivate ? [caller.id] : [],
  });
}

export interface ChannelMemberView {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: WorkspaceRole;
  isCreator: boolean;
}

/** The channel's members who are active in its workspace: the creator first, then by name. */
export async function listChannelMembers(ctx: AppContext, channel: ChannelRow): Promise<ChannelMemberView[]> {
  const rows = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: workspaceMembers.role,
    })
    .from(channelMembers)
    .innerJoin(users, eq(users.id, channelMembers.userId))
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.userId, channelMembers.userId),
        eq(workspaceMembers.workspaceId, channel.workspaceId),
      ),
    )
    .where(eq(channelMembers.channelId, channel.id))
    .orderBy(
      sql`${users.id} is not distinct from ${channel.createdBy}::uuid desc`,
      asc(users.firstName),
      asc(users.lastName),
      asc(users.email),
    );
  return rows.map((r) => ({ ...r, isCreator: r.id === channel.createdBy }));
}

/**
 * Adds active workspace members to a private channel (400 for an open one: people join those
 * themselves). Anyone not an active member of the workspace → 404 and nothing is added; people
 * already in it are skipped.
 */
export async function addChannelMembers(
  ctx: AppContext,
  caller: Caller,
  channel: ChannelRow,
  userIds: string[],
): Promise<void> {
  if (!channel.isPrivate) throw badRequest(CHANNEL_MESSAGES.privateOnly);
  if (channel.archivedAt) throw conflict(CHANNEL_MESSAGES.archived);
  const wanted = [...new Set(userIds)];
  const added = await ctx.db.transaction(async (tx) => {
    // Shares the workspace lock with member removal, so nobody is removed between check and insert.
    const [locked] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, channel.workspaceId))
      .for('share');
    if (!locked) throw workspaceNotFound();
    const present = await tx
      .select({
        userId: workspaceMembers.userId,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(
        and(eq(workspaceMembers.workspaceId, channel.workspaceId), inArray(workspaceMembers.userId, wanted)),
      );
    if (present.length !== wanted.length)
      throw new HttpError(404, WORKSPACE_MESSAGES.channelMemberNotFound, 'userIds');
    const inserted = await tx
      .insert(channelMembers)
      .values(wanted.map((userId) => ({ channelId: channel.id, userId, addedAt: ctx.now() })))
      .onConflictDoNothing()
      .returning({ userId: channelMembers.userId });
    const ids = new Set(inserted.map((r) => r.userId));
    return present.filter((p) => ids.has(p.userId));
  });
  if (added.length === 0) return;
  announceChannelChange(
    ctx,
    channel,
    caller.id,
    [{ kind: 'added', names: added.map((p) => displayName(p)) }],
    {
      concerned: added.map((p) => p.userId),
    },
  );
}

/** Removes someone from a private channel: from now on they get 404 for it, and their sockets leave its room. */
export async function removeChannelMember(
  ctx: AppContext,
  caller: Caller,
  channel: ChannelRow,
  userId: string,
): Promise<void> {
  if (!channel.isPrivate) throw badRequest(CHANNEL_MESSAGES.privateOnly);
  if (userId === caller.id) throw badRequest(CHANNEL_MESSAGES.useLeave);
  if (!isUuid(userId)) throw notFound(CHANNEL_MESSAGES.memberNotInChannel);
  const [removed] = await ctx.db
    .delete(channelMembers)
    .where(and(eq(channelMembers.channelId, channel.id), eq(channelMembers.userId, userId)))
    .returning({ userId: channelMembers.userId });
  if (!removed) throw notFound(CHANNEL_MESSAGES.memberNotInChannel);
  const [person] = await ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  announceChannelChange(
    ctx,
    channel,
    caller.id,
    [{ kind: 'removed', name: person ? displayName(person) : 'someone' }],
    {
      concerned: [userId],
      lostAccess: [userId],
    },
  );
}

export interface BrowseChannelView {
  channel: ChannelRow;
  memberCount: number;
  joined: boolean;
}

/**
 * The browse view: every open channel of the workspace and the private ones the caller is in,
 * archived ones included, by name. Private channels the caller is not in are not there at all.
 */
export async function browseChannels(
  ctx: AppContext,
  caller: Caller,
  workspace: WorkspaceRow,
): Promise<BrowseChannelView[]> {
  const rows = await ctx.db
    .select({
      channel: channels,
      memberCount: sql<number>`(select count(*)::int from ${channelMembers} bm
        join ${workspaceMembers} bwm on bwm.user_id = bm.user_id and bwm.workspace_id = ${channels.workspaceId}
        where bm.channel_id = ${channels.id})`,
      joined: sql<boolean>`exists (select 1 from ${channelMembers} bj
        where bj.channel_id = ${channels.id} and bj.user_id = ${caller.id}::uuid)`,
    })
    .from(channels)
    .where(
      and(eq(channels.workspaceId, workspace.id), channelVisibleSql('channels', sql`${caller.id}::uuid`)),
    )
    .orderBy(asc(sql`lower(${channels.name})`), asc(channels.id));
  return rows.map((r) => ({
    channel: r.channel,
    memberCount: Number(r.memberCount),
    joined: r.joined === true,
  }));
}

/** Stars or unstars a channel for the caller only (idempotent). */
export async function setChannelStarred(
  ctx: AppContext,
  caller: Caller,
  channel: ChannelRow,
  starred: boolean,
): Promise<void> {
  if (starred) {
    await ctx.db
      .insert(channelStars)
      .values({ userId: caller.id, channelId: channel.id, createdAt: ctx.now() })
      .onConflictDoNothing();
  } else {
    await ctx.db
      .delete(channelStars)
      .where(and(eq(channelStars.userId, caller.id), eq(channelStars.channelId, channel.id)));
  }
}

/** After the commit: the chat feature announces the changes in the channel and pushes them live. */
function announceChannelChange(
  ctx: AppContext,
  channel: ChannelRow,
  actorId: string,
  changes: ChannelChange[],
  people: { concerned?: string[]; lostAccess?: string[] } = {},
) {
  if (changes.length === 0) return;
  void ctx.bus.emit('channelChanged', {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    actorId,
    changes,
    concerned: people.concerned ?? [],
    lostAccess: people.lostAccess ?? [],
  });
}

export async function deleteChannel(ctx: AppContext, channel: ChannelRow): Promise<void> {
  await ctx.db.delete(channels).where(eq(channels.id, channel.id));
  emitMembershipEvent(ctx, 'channelDeleted', { workspaceId: channel.workspaceId, channelId: channel.id });
}
