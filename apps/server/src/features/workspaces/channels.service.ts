import {
  type createChannelBody,
  type updateChannelBody,
  WORKSPACE_MESSAGES,
} from '@cohort/shared/workspaces';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { channelMembers, channels, workspaceMembers, workspaces } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import {
  type Caller,
  type ChannelRow,
  channelMemberIds,
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
  const rows = await listReadableChannels(ctx, caller, workspace.id);
  const ids = await channelMemberIds(
    ctx,
    rows.map((c) => c.id),
  );
  return rows.map((channel) => ({ channel, memberIds: ids.get(channel.id) ?? [] }));
}

export async function getChannel(ctx: AppContext, channel: ChannelRow): Promise<ChannelView> {
  const ids = await channelMemberIds(ctx, [channel.id]);
  return { channel, memberIds: ids.get(channel.id) ?? [] };
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
  return getChannel(ctx, created);
}

export async function updateChannel(
  ctx: AppContext,
  channel: ChannelRow,
  patch: UpdateChannelData,
): Promise<ChannelRow> {
  if (patch.name === undefined && patch.description === undefined) return channel;
  if (patch.name !== undefined) await assertChannelNameFree(ctx, channel.workspaceId, patch.name, channel.id);
  const [row] = await withNameConflict(() =>
    ctx.db.update(channels).set(patch).where(eq(channels.id, channel.id)).returning(),
  );
  if (!row) throw notFound(WORKSPACE_MESSAGES.channelNotFound);
  return row;
}

export async function deleteChannel(ctx: AppContext, channel: ChannelRow): Promise<void> {
  await ctx.db.delete(channels).where(eq(channels.id, channel.id));
  emitMembershipEvent(ctx, 'channelDeleted', { workspaceId: channel.workspaceId, channelId: channel.id });
}
