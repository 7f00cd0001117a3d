import { roleCan } from '@cohort/shared/permissions';
import {
  type createWorkspaceBody,
  type updateWorkspaceBody,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
} from '@cohort/shared/workspaces';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { channels, users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict } from '../../http/errors.ts';
import { type ChannelView, channelViews } from './channels.service.ts';
import {
  afterInvitationsSent,
  type InvitationsSent,
  type Inviter,
  insertInvitations,
  reserveInvitationMails,
} from './invitations.service.ts';
import { listMembers, type MemberView, membersOf } from './members.service.ts';
import {
  type Caller,
  listReadableChannels,
  type WorkspaceAccess,
  type WorkspaceRow,
  workspaceNotFound,
} from './workspaces.access.ts';
import { emitMembershipEvent } from './workspaces.events.ts';
import { lockWorkspace, type Tx } from './workspaces.lock.ts';

type CreateWorkspaceData = z.output<typeof createWorkspaceBody>;
type UpdateWorkspaceData = z.output<typeof updateWorkspaceBody>;

export interface WorkspaceView {
  workspace: WorkspaceRow;
  creatorEmail: string | null;
  members: MemberView[];
}

export interface WorkspaceDetailView extends WorkspaceView {
  role: WorkspaceRole;
  channels: ChannelView[];
}

// ---------------------------------------------------------------------------------------------------
// Reads

async function creatorEmail(ctx: AppContext, workspace: WorkspaceRow) {
  if (!workspace.createdBy) return null;
  const [row] = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, workspace.createdBy));
  return row?.email ?? null;
}

/** The caller's workspaces, newest first. */
export async function listWorkspacesForUser(ctx: AppContext, caller: Caller): Promise<WorkspaceView[]> {
  const creators = sql<
    string | null
  >`(select ${users.email} from ${users} where ${users.id} = ${workspaces.createdBy})`;
  const rows = await ctx.db
    .select({ workspace: workspaces, creatorEmail: creators, role: workspaceMembers.role })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.id)),
    )
    .orderBy(desc(workspaces.createdAt), asc(workspaces.name));
  const members = await membersOf(
    ctx,
    rows.map((r) => r.workspace.id),
    rows.filter((r) => roleCan(r.role, 'manageMembers')).map((r) => r.workspace.id),
  );
  return rows.map((r) => ({
    workspace: r.workspace,
    creatorEmail: r.creatorEmail,
    members: members.get(r.workspace.id) ?? [],
  }));
}

/** The workspace page: the workspace, its members, the caller's role and the channels they may read. */
export async function getWorkspaceDetail(
  ctx: AppContext,
  caller: Caller,
  access: WorkspaceAccess,
): Promise<WorkspaceDetailView> {
  const { workspace, role } = access;
  const [members, creator, readable] = await Promise.all([
    listMembers(ctx, access),
    creatorEmail(ctx, workspace),
    listReadableChannels(ctx, caller, workspace.id),
  ]);
  return {
    workspace,
    creatorEmail: creator,
    members,
    role,
    channels: await channelViews(ctx, caller, readable),
  };
}

// ---------------------------------------------------------------------------------------------------
// Writes

async function assertNameFree(db: Db | Tx, name: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(sql`lower(${workspaces.name}) = lower(${name})`);
  if (taken && taken.id !== exceptId) throw conflict(WORKSPACE_MESSAGES.nameTaken);
}

/** Unique-index races end as the same 409 as the pre-check. */
async function mapNameConflict<T>(message: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}

/**
 * Creates the workspace with the caller as its admin. Every listed e-mail — with an account or not —
 * gets an invitation (and its e-mail) in the same transaction; nobody joins without accepting.
 * Repeated e-mails: the last entry wins; the caller's own is ignored.
 */
export async function createWorkspace(
  ctx: AppContext,
  caller: Inviter,
  body: CreateWorkspaceData,
): Promise<WorkspaceAccess> {
  const byEmail = new Map<string, WorkspaceRole>();
  for (const m of body.members) if (m.email !== caller.email.toLowerCase()) byEmail.set(m.email, m.role);

  await assertNameFree(ctx.db, body.name);
  await reserveInvitationMails(ctx, caller.id, byEmail.size);
  const { workspace, sent } = await mapNameConflict(WORKSPACE_MESSAGES.nameTaken, () =>
    ctx.db.transaction(async (tx): Promise<{ workspace: WorkspaceRow; sent: InvitationsSent }> => {
      const now = ctx.now();
      const [ws] = await tx
        .insert(workspaces)
        .values({ name: body.name, description: body.description, createdBy: caller.id, createdAt: now })
        .returning();
      if (!ws) throw new Error('insert returned no row');
      await tx
        .insert(workspaceMembers)
        .values({ workspaceId: ws.id, userId: caller.id, role: 'admin', joinedAt: now });
      await ctx.bus.emitStrict('workspaceCreated', { workspaceId: ws.id, createdBy: caller.id, db: tx });
      const invitees = [...byEmail].map(([email, role]) => ({ email, role }));
      const { sent } = await insertInvitations(ctx, tx, ws, caller, invitees);
      return { workspace: ws, sent };
    }),
  );
  await afterInvitationsSent(ctx, sent);
  return { workspace, role: 'admin' };
}

export async function updateWorkspace(
  ctx: AppContext,
  workspace: WorkspaceRow,
  patch: UpdateWorkspaceData,
): Promise<WorkspaceRow> {
  if (patch.name === undefined && patch.description === undefined) return workspace;
  if (patch.name !== undefined) await assertNameFree(ctx.db, patch.name, workspace.id);
  const [row] = await mapNameConflict(WORKSPACE_MESSAGES.nameTaken, () =>
    ctx.db.update(workspaces).set(patch).where(eq(workspaces.id, workspace.id)).returning(),
  );
  if (!row) throw workspaceNotFound();
  return row;
}

export async function deleteWorkspace(ctx: AppContext, workspace: WorkspaceRow): Promise<void> {
  const { userIds, channelIds } = await ctx.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    const members = await tx
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspace.id));
    // The real-time layer empties these channels' rooms once they are gone.
    const gone = await tx
      .select({ id: channels.id })
      .from(channels)
      .where(eq(channels.workspaceId, workspace.id));
    // Channels, memberships and invitations go with it (ON DELETE CASCADE).
    await tx.delete(workspaces).where(eq(workspaces.id, workspace.id));
    return { userIds: members.map((m) => m.userId), channelIds: gone.map((c) => c.id) };
  });
  emitMembershipEvent(ctx, 'workspaceDeleted', { workspaceId: workspace.id, userIds, channelIds });
}
