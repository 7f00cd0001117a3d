import { WORKSPACE_MESSAGES, type WorkspaceRole } from '@cohort/shared/workspaces';
import { and, asc, eq, exists, inArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { channelMembers, channels, workspaceMembers, workspaces } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
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
 * The workspace named `workspaceNameOrId` (its name in any case, or its id) with the caller's role,
 * or 404 when it does not exist or the caller is not a member.
 */
export async function loadWorkspaceForUser(
  ctx: AppContext,
  caller: Caller,
  workspaceNameOrId: string,
): Promise<WorkspaceAccess> {
  const key = workspaceNameOrId.trim();
  if (!key) throw workspaceNotFound();
  const byName = sql`lower(${workspaces.name}) = lower(${key})`;
  const rows = await ctx.db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.id)),
    )
    .where(isUuid(key) ? or(eq(workspaces.id, key), byName) : byName)
    .limit(2);
  // A workspace may be named like another one's id: the id wins.
  const row = rows.find((r) => r.workspace.id === key.toLowerCase()) ?? rows[0];
  if (!row) throw workspaceNotFound();
  return row;
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
  const access = await loadWorkspaceForUser(ctx, caller, workspaceNameOrId);
  if (!isUuid(channelId)) throw channelNotFound();
  const [row] = await ctx.db
    .select({ channel: channels, memberId: channelMembers.userId })
    .from(channels)
    .leftJoin(
      channelMembers,
      and(eq(channelMembers.channelId, channels.id), eq(channelMembers.userId, caller.id)),
    )
    .where(and(eq(channels.id, channelId), eq(channels.workspaceId, access.workspace.id)));
  const isChannelMember = row?.memberId != null;
  if (!row || !canReadChannel(row.channel, isChannelMember)) throw channelNotFound();
  return { ...access, channel: row.channel, isChannelMember };
}

/** The channels of a workspace the caller may read, in sidebar order (oldest first). */
export async function listReadableChannels(ctx: AppContext, caller: Caller, workspaceId: string) {
  return ctx.db
    .select()
    .from(channels)
    .where(
      and(
        eq(channels.workspaceId, workspaceId),
        or(
          eq(channels.isPrivate, false),
          exists(
            ctx.db
              .select({ one: sql`1` })
              .from(channelMembers)
              .where(and(eq(channelMembers.channelId, channels.id), eq(channelMembers.userId, caller.id))),
          ),
        ),
      ),
    )
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
