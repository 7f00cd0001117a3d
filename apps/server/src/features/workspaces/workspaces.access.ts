import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { WORKSPACE_MESSAGES, type WorkspaceRole } from '@cohort/shared/workspaces';
import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { channelMembers, channels, users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { canReadChannel } from './workspaces.policy.ts';

/**
 * The one funnel through which every feature reaches a workspace or a channel on behalf of a user
 * (Zulip's access_stream_by_id). Chat, calls, tasks, projects and search import these instead of
 * reading the workspace tables. A workspace the caller does not belong to and a channel the caller
 * may not read are answered exactly like ones that do not exist.
 */

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type ChannelRow = typeof channels.$inferSelect;

/** Anything that carries the caller's user id: the session user, a socket's user. */
export interface Caller {
  id: string;
}

export interface WorkspaceAccess {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
}

export interface ChannelAccess extends WorkspaceAccess {
  channel: ChannelRow;
  isChannelMember: boolean;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids in paths are checked before they reach a uuid column (PostgreSQL rejects malformed uuids). */
export const isUuid = (value: string) => UUID_RE.test(value);

export const workspaceNotFound = () => notFound(WORKSPACE_MESSAGES.workspaceNotFound);
export const channelNotFound = () => notFound(WORKSPACE_MESSAGES.channelNotFound);

/**
 * Whether the caller has two-factor sign-in on, read with the membership (fresh on every call, so
 * turning it on admits them at once). A workspace that requires it refuses everyone else with 403
 * and its own message, which the web app recognises (members know the workspace exists: no leak).
 */
const callerHasTwoFactor = sql<boolean>`${users.totpEnabledAt} is not null`;
function requireTwoFactorIfAsked(workspace: WorkspaceRow, callerHasIt: boolean) {
  if (workspace.requireTwoFactor && !callerHasIt) {
    throw forbidden(SECURITY_MESSAGES.workspaceRequiresTwoFactor);
  }
}

/**
 * The 2FA rule of `requireTwoFactorIfAsked` as an SQL condition, for the features that decide access
 * in one query (search, the notification feed): the workspace does not require two-factor sign-in,
 * or the user has it on.
 */
export const twoFactorAdmitsSql = (workspaceId: SQL, userId: SQL) => sql`(
  not coalesce((select w2.require_two_factor from ${workspaces} w2 where w2.id = ${workspaceId}), false)
  or exists (select 1 from ${users} u2 where u2.id = ${userId} and u2.totp_enabled_at is not null))`;

// ---------------------------------------------------------------------------------------------------
// The access funnel as SQL (Zulip's access_stream rules as query fragments): features that decide
// access inside one query (chat's writes and rooms, notifications, search, tasks) compose these and
// never join workspace_members or channel_members themselves. `userId`/`workspaceId` are SQL
// expressions of the caller's query; a fragment's own aliases start with `acc_` so they never capture
// the caller's. `channel` is the literal alias of the channels row in the caller's query.

/** The alias of the channels row a fragment is about ('channels' when the query does not alias it). */
export type ChannelAlias = 'c' | 'channels';

/** The user is a member of the workspace (with one of `roles`, when given). */
export const isWorkspaceMemberSql = (workspaceId: SQL, userId: SQL, roles?: readonly string[]) =>
  sql`exists (select 1 from ${workspaceMembers} acc_wm
    where acc_wm.workspace_id = ${workspaceId} and acc_wm.user_id = ${userId}${
      roles
        ? sql` and acc_wm.role in (${sql.join(
            roles.map((r) => sql`${r}`),
            sql`, `,
          )})`
        : sql``
    })`;

/**
 * The privacy rule of `canReadChannel` as an SQL condition on the channel aliased `channel`: public,
 * or the user is listed in it.
 */
export const channelVisibleSql = (channel: ChannelAlias, userId: SQL) => {
  const c = sql.raw(channel);
  return sql`(not ${c}.is_private or exists (
    select 1 from ${channelMembers} acc_cm where acc_cm.channel_id = ${c}.id and acc_cm.user_id = ${userId}))`;
};

/**
 * The user may read the channel aliased `channel`: a member of its workspace (with one of `roles`,
 * when given) and, for a private channel, listed in it. Queries that answer the web add
 * `twoFactorAdmitsSql` (or use `readableChannelIdsSql`, which does).
 */
export const channelReadableSql = (channel: ChannelAlias, userId: SQL, roles?: readonly string[]) =>
  sql`(${isWorkspaceMemberSql(sql`${sql.raw(channel)}.workspace_id`, userId, roles)} and ${channelVisibleSql(channel, userId)})`;

/**
 * The ids of the channels the user may read, as `loadChannelForUser` decides (membership, privacy,
 * the workspace's two-factor rule), as a set for `… in (…)`; `where` narrows it (on alias `c`).
 */
export const readableChannelIdsSql = (userId: SQL, where?: SQL) => sql`select c.id from ${channels} c
  where ${channelReadableSql('c', userId)} and ${twoFactorAdmitsSql(sql`c.workspace_id`, userId)}${
    where ? sql` and ${where}` : sql``
  }`;

/** The ids of the users who may read the channel `channelId` (membership and privacy; no 2FA rule). */
export const channelReaderIdsSql = (channelId: SQL) => sql`select acc_wm.user_id
  from ${channels} acc_c join ${workspaceMembers} acc_wm on acc_wm.workspace_id = acc_c.workspace_id
  where acc_c.id = ${channelId} and (not acc_c.is_private or exists (select 1 from ${channelMembers} acc_cm
    where acc_cm.channel_id = acc_c.id and acc_cm.user_id = acc_wm.user_id))`;

/** The ids of everyone who shares a workspace with the user (the user too, when a member of any). */
export const coMemberIdsSql = (userId: SQL) => sql`select acc_theirs.user_id from ${workspaceMembers} acc_mine
  join ${workspaceMembers} acc_theirs on acc_theirs.workspace_id = acc_mine.workspace_id
  where acc_mine.user_id = ${userId}`;

/** The two users share at least one workspace. */
export const sharesWorkspaceSql = (
  userId: SQL,
  otherId: SQL,
) => sql`exists (select 1 from ${workspaceMembers} acc_mine
  join ${workspaceMembers} acc_theirs on acc_theirs.workspace_id = acc_mine.workspace_id
  where acc_mine.user_id = ${userId} and acc_theirs.user_id = ${otherId})`;

/**
 * The workspace named by the `key` placeholder: its name in any case, or (`byId`, only when the key
 * is a UUID) also its id.
 */
function workspaceKeyMatches(byId: boolean) {
  const key = sql.placeholder('key');
  const byName = sql`lower(${workspaces.name}) = lower(${key})`;
  return byId ? or(eq(workspaces.id, key), byName) : byName;
}

/** The join to the caller's (the `callerId` placeholder's) membership row. */
const callerIsMember = and(
  eq(workspaceMembers.workspaceId, workspaces.id),
  eq(workspaceMembers.userId, sql.placeholder('callerId')),
);

/** The caller's membership of the workspace, for each way of naming it (see workspaceKeyMatches). */
const workspaceOfCallerQuery = (byId: boolean) =>
  preparedQuery(byId ? 'workspace_of_caller_by_id' : 'workspace_of_caller_by_name', (db) =>
    db
      .select({ workspace: workspaces, role: workspaceMembers.role, twoFactor: callerHasTwoFactor })
      .from(workspaces)
      .innerJoin(workspaceMembers, callerIsMember)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(workspaceKeyMatches(byId))
      .limit(2),
  );
const workspaceOfCaller = { name: workspaceOfCallerQuery(false), idOrName: workspaceOfCallerQuery(true) };

/**
 * One round trip for the workspace, the caller's role, the channel and the caller's listing in it:
 * this runs on every history read, join and first send (bench/load.ts).
 */
const channelOfCallerQuery = (byId: boolean) =>
  preparedQuery(byId ? 'channel_of_caller_by_id' : 'channel_of_caller_by_name', (db) =>
    db
      .select({
        workspace: workspaces,
        role: workspaceMembers.role,
        twoFactor: callerHasTwoFactor,
        channel: channels,
        memberId: channelMembers.userId,
      })
      .from(workspaces)
      .innerJoin(workspaceMembers, callerIsMember)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .leftJoin(
        channels,
        and(eq(channels.workspaceId, workspaces.id), eq(channels.id, sql.placeholder('channelId'))),
      )
      .leftJoin(
        channelMembers,
        and(
          eq(channelMembers.channelId, channels.id),
          eq(channelMembers.userId, sql.placeholder('callerId')),
        ),
      )
      .where(workspaceKeyMatches(byId))
      .limit(2),
  );
const channelOfCaller = { name: channelOfCallerQuery(false), idOrName: channelOfCallerQuery(true) };

/**
 * The workspace named `workspaceNameOrId` (its name in any case, or its id) with the caller's role,
 * or 404 when it does not exist or the caller is not a member.
 */
export async function loadWorkspaceForUser(
  ctx: AppContext,
  caller: Caller,
  workspaceNameOrId: string,
  /** Leaving is always possible: a workspace's 2FA rule must not hold anyone in it. */
  opts: { evenWithoutTwoFactor?: boolean } = {},
): Promise<WorkspaceAccess> {
  const key = workspaceNameOrId.trim();
  if (!key) throw workspaceNotFound();
  const rows = await workspaceOfCaller[isUuid(key) ? 'idOrName' : 'name'](ctx.db).execute({
    key,
    callerId: caller.id,
  });
  // A workspace may be named like another one's id: the id wins.
  const row = rows.find((r) => r.workspace.id === key.toLowerCase()) ?? rows[0];
  if (!row) throw workspaceNotFound();
  if (!opts.evenWithoutTwoFactor) requireTwoFactorIfAsked(row.workspace, row.twoFactor);
  return { workspace: row.workspace, role: row.role };
}

/** The caller's role in a workspace they are known to reach by id, or null when not a member. */
export async function workspaceRoleOf(
  ctx: AppContext,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole | null> {
  if (!isUuid(workspaceId) || !isUuid(userId)) return null;
  const [row] = await ctx.db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row?.role ?? null;
}

/**
 * The channel `channelId` of the workspace, when the caller may read it; 404 otherwise (a channel
 * of another workspace, a private channel the caller is not listed in, or no such channel).
 */
export async function loadChannelForUser(
  ctx: AppContext,
  caller: Caller,
  workspaceNameOrId: string,
  channelId: string,
): Promise<ChannelAccess> {
  if (!isUuid(channelId)) {
    await loadWorkspaceForUser(ctx, caller, workspaceNameOrId);
    throw channelNotFound();
  }
  const key = workspaceNameOrId.trim();
  if (!key) throw workspaceNotFound();
  const rows = await channelOfCaller[isUuid(key) ? 'idOrName' : 'name'](ctx.db).execute({
    key,
    callerId: caller.id,
    channelId,
  });
  // A workspace may be named like another one's id: the id wins (as in loadWorkspaceForUser).
  const row = rows.find((r) => r.workspace.id === key.toLowerCase()) ?? rows[0];
  if (!row) throw workspaceNotFound();
  requireTwoFactorIfAsked(row.workspace, row.twoFactor);
  const isChannelMember = row.memberId != null;
  if (!row.channel || !canReadChannel(row.channel, isChannelMember)) throw channelNotFound();
  return { workspace: row.workspace, role: row.role, channel: row.channel, isChannelMember };
}

/** The channels of a workspace the caller may read, in sidebar order (oldest first). */
export async function listReadableChannels(ctx: AppContext, caller: Caller, workspaceId: string) {
  return ctx.db
    .select()
    .from(channels)
    .where(and(eq(channels.workspaceId, workspaceId), channelVisibleSql('channels', sql`${caller.id}::uuid`)))
    .orderBy(asc(channels.createdAt), asc(channels.name), asc(channels.id));
}

/** User ids listed in each of the given channels: the creator first, then by time added. */
export async function channelMemberIds(
  ctx: AppContext,
  channelIds: string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(channelIds.map((id) => [id, []]));
  if (channelIds.length === 0) return result;
  const rows = await ctx.db
    .select({ channelId: channelMembers.channelId, userId: channelMembers.userId })
    .from(channelMembers)
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .where(inArray(channelMembers.channelId, channelIds))
    // The creator first, then by time added (ties by id, so the order is stable).
    .orderBy(
      sql`${channelMembers.userId} is not distinct from ${channels.createdBy} desc`,
      asc(channelMembers.addedAt),
      asc(channelMembers.userId),
    );
  for (const r of rows) result.get(r.channelId)?.push(r.userId);
  return result;
}

/** How many people are in a channel (joined an open one, or listed in a private one). */
export async function channelMemberCount(ctx: AppContext, channelId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(channelMembers)
    .where(eq(channelMembers.channelId, channelId));
  return Number(row?.n ?? 0);
}

/**
 * The channel `channelId` in whichever workspace holds it, when the caller may read it (for
 * callers that only know the channel id, like a call room); 404 otherwise, exactly as above.
 */
export async function loadChannelByIdForUser(
  ctx: AppContext,
  caller: Caller,
  channelId: string,
): Promise<ChannelAccess> {
  if (!isUuid(channelId)) throw channelNotFound();
  const [row] = await ctx.db
    .select({ workspaceId: channels.workspaceId })
    .from(channels)
    .where(eq(channels.id, channelId));
  if (!row) throw channelNotFound();
  return loadChannelForUser(ctx, caller, row.workspaceId, channelId);
}

/** The active members of a workspace as people (id, names, e-mail), by first and last name. */
export async function listWorkspaceUsers(ctx: AppContext, workspaceId: string) {
  return ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
}

/**
 * Everyone who shares at least one workspace with the user, the user included (whom the user's
 * presence may be shown to; nobody else may learn it).
 */
export async function coMemberIds(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = rowsOf<{ user_id: string }>(
    await ctx.db.execute(sql`select distinct u.user_id from (${coMemberIdsSql(sql`${userId}::uuid`)}) u`),
  );
  const ids = new Set(rows.map((r) => r.user_id));
  ids.add(userId);
  return [...ids];
}

/**
 * Of `userIds`, those who share at least one workspace with `userId` (who counts as sharing with
 * themselves).
 */
export async function coMembersAmong(
  ctx: AppContext,
  userId: string,
  userIds: string[],
): Promise<Set<string>> {
  const result = new Set(userIds.filter((id) => id === userId));
  const others = userIds.filter((id) => id !== userId);
  if (others.length === 0) return result;
  const rows = await ctx.db
    .selectDistinct({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(
      and(
        inArray(workspaceMembers.userId, others),
        sql`${workspaceMembers.userId} in (${coMemberIdsSql(sql`${userId}::uuid`)})`,
      ),
    );
  for (const r of rows) result.add(r.userId);
  return result;
}

/** Whether two users are both members of at least one workspace. */
export async function sharesWorkspace(ctx: AppContext, userId: string, otherId: string): Promise<boolean> {
  if (userId === otherId) return true;
  const rows = rowsOf<{ shares: boolean }>(
    await ctx.db.execute(
      sql`select ${sharesWorkspaceSql(sql`${userId}::uuid`, sql`${otherId}::uuid`)} as shares`,
    ),
  );
  return rows[0]?.shares === true;
}

/**
 * Names of the workspaces that require two-factor sign-in where the user is an admin: turning their
 * own 2FA off there would lock them out of the workspace whose setting they manage.
 */
export async function workspacesRequiringTwoFactorAdministeredBy(
  ctx: AppContext,
  userId: string,
): Promise<string[]> {
  const rows = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.role, 'admin'),
        eq(workspaces.requireTwoFactor, true),
      ),
    )
    .orderBy(asc(workspaces.name));
  return rows.map((r) => r.name);
}

/** The workspaces the user belongs to, with their role, by name (the board switcher). */
export async function listMemberships(ctx: AppContext, userId: string) {
  return ctx.db
    .select({ id: workspaces.id, name: workspaces.name, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(asc(sql`lower(${workspaces.name})`), asc(workspaces.id));
}

/** The members of a workspace as people with their role, by first and last name. */
export async function listWorkspaceMembersWithRoles(ctx: AppContext, workspaceId: string) {
  return ctx.db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
}

/** The current names of these workspaces (a link stores the id; names change). */
export async function workspaceNamesByIds(
  ctx: AppContext,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(ids)].filter(isUuid);
  if (unique.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(inArray(workspaces.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}
