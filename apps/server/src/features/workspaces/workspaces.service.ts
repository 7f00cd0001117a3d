import {
  type addMemberBody,
  type createWorkspaceBody,
  type updateWorkspaceBody,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
} from '@cohort/shared/workspaces';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import {
  channelMembers,
  channels,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict, notFound } from '../../http/errors.ts';
import {
  afterInvitationsSent,
  type InvitationsSent,
  type Inviter,
  insertInvitations,
  inviteMember,
  reserveInvitationMails,
} from './invitations.service.ts';
import {
  type Caller,
  type ChannelRow,
  channelMemberIds,
  isUuid,
  listReadableChannels,
  type WorkspaceAccess,
  type WorkspaceRow,
  workspaceNotFound,
} from './workspaces.access.ts';
import { emitMembershipEvent } from './workspaces.events.ts';
import { lockWorkspace, type Tx } from './workspaces.lock.ts';
import { roleCan } from './workspaces.policy.ts';

type CreateWorkspaceData = z.output<typeof createWorkspaceBody>;
type UpdateWorkspaceData = z.output<typeof updateWorkspaceBody>;
type AddMemberData = z.output<typeof addMemberBody>;

export interface MemberView {
  userId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  role: WorkspaceRole;
  status: 'active' | 'invited';
}

export interface WorkspaceView {
  workspace: WorkspaceRow;
  creatorEmail: string | null;
  members: MemberView[];
}

export interface WorkspaceDetailView extends WorkspaceView {
  role: WorkspaceRole;
  channels: Array<{ channel: ChannelRow; memberIds: string[] }>;
}

// ---------------------------------------------------------------------------------------------------
// Reads

/**
 * Active members (the creator, then by joining time), then pending invitations, per workspace. Only
 * admins see who is invited and with which role: invitations are listed for the workspaces in
 * `withInvitations` only.
 */
async function membersOf(
  ctx: AppContext,
  workspaceIds: string[],
  withInvitations: readonly string[],
): Promise<Map<string, MemberView[]>> {
  const result = new Map<string, MemberView[]>(workspaceIds.map((id) => [id, []]));
  if (workspaceIds.length === 0) return result;
  const invitedIn = workspaceIds.filter((id) => withInvitations.includes(id));
  const [active, invited] = await Promise.all([
    ctx.db
      .select({
        workspaceId: workspaceMembers.workspaceId,
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: workspaceMembers.role,
      })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(inArray(workspaceMembers.workspaceId, workspaceIds))
      // The creator first, then by joining time.
      .orderBy(
        sql`${workspaceMembers.userId} is not distinct from ${workspaces.createdBy} desc`,
        asc(workspaceMembers.joinedAt),
        asc(users.email),
      ),
    invitedIn.length === 0
      ? []
      : ctx.db
          .select({
            workspaceId: workspaceInvitations.workspaceId,
            email: workspaceInvitations.email,
            role: workspaceInvitations.role,
          })
          .from(workspaceInvitations)
          .where(inArray(workspaceInvitations.workspaceId, invitedIn))
          .orderBy(asc(workspaceInvitations.createdAt), asc(workspaceInvitations.email)),
  ]);
  for (const { workspaceId, ...m } of active) result.get(workspaceId)?.push({ ...m, status: 'active' });
  for (const { workspaceId, ...m } of invited) {
    result.get(workspaceId)?.push({ ...m, userId: null, firstName: '', lastName: '', status: 'invited' });
  }
  return result;
}

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

/** The members of the workspace, as the caller with `role` may see them (invitations: admins only). */
export async function listMembers(
  ctx: AppContext,
  access: { workspace: WorkspaceRow; role: WorkspaceRole },
): Promise<MemberView[]> {
  const { workspace, role } = access;
  const withInvitations = roleCan(role, 'manageMembers') ? [workspace.id] : [];
  return (await membersOf(ctx, [workspace.id], withInvitations)).get(workspace.id) ?? [];
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
  const memberIds = await channelMemberIds(
    ctx,
    readable.map((c) => c.id),
  );
  return {
    workspace,
    creatorEmail: creator,
    members,
    role,
    channels: readable.map((channel) => ({ channel, memberIds: memberIds.get(channel.id) ?? [] })),
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

/**
 * Adding a member invites them: the answer is the pending invitation (`status: 'invited'`, no user id
 * or names, whether or not the address has an account), which becomes a membership on acceptance.
 */
export async function addMember(
  ctx: AppContext,
  caller: Inviter,
  workspace: WorkspaceRow,
  input: AddMemberData,
): Promise<MemberView> {
  const invitation = await inviteMember(ctx, caller, workspace, input);
  return {
    userId: null,
    email: invitation.email,
    firstName: '',
    lastName: '',
    role: invitation.role,
    status: 'invited',
  };
}

async function loadMember(tx: Tx, workspaceId: string, userId: string) {
  if (!isUuid(userId)) throw notFound(WORKSPACE_MESSAGES.memberNotFound);
  const [row] = await tx
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  if (!row) throw notFound(WORKSPACE_MESSAGES.memberNotFound);
  return row;
}

/** Refuses to leave a workspace without an admin (checked under the workspace lock). */
async function assertAnotherAdmin(
  tx: Tx,
  workspaceId: string,
  message: string = WORKSPACE_MESSAGES.lastAdmin,
) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'admin')));
  if ((row?.n ?? 0) <= 1) throw conflict(message);
}

export async function updateMemberRole(
  ctx: AppContext,
  workspace: WorkspaceRow,
  userId: string,
  role: WorkspaceRole,
): Promise<MemberView> {
  const { member, previousRole } = await ctx.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    const current = await loadMember(tx, workspace.id, userId);
    if (current.role === role) return { member: current, previousRole: current.role };
    if (current.role === 'admin') await assertAnotherAdmin(tx, workspace.id);
    await tx
      .update(workspaceMembers)
      .set({ role })
      .where(
        and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, current.userId)),
      );
    return { member: { ...current, role }, previousRole: current.role };
  });
  if (previousRole !== role) {
    emitMembershipEvent(ctx, 'roleChanged', {
      workspaceId: workspace.id,
      userId: member.userId,
      role,
      previousRole,
    });
  }
  return { ...member, status: 'active' };
}

/** Removes the member and their channel memberships in this workspace (private channels included). */
export async function removeMember(
  ctx: AppContext,
  workspace: WorkspaceRow,
  userId: string,
  lastAdminMessage: string = WORKSPACE_MESSAGES.lastAdmin,
): Promise<void> {
  const removed = await ctx.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    const current = await loadMember(tx, workspace.id, userId);
    if (current.role === 'admin') await assertAnotherAdmin(tx, workspace.id, lastAdminMessage);
    await tx
      .delete(channelMembers)
      .where(
        and(
          eq(channelMembers.userId, current.userId),
          inArray(
            channelMembers.channelId,
            tx.select({ id: channels.id }).from(channels).where(eq(channels.workspaceId, workspace.id)),
          ),
        ),
      );
    await tx
      .delete(workspaceMembers)
      .where(
        and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, current.userId)),
      );
    return current.userId;
  });
  emitMembershipEvent(ctx, 'memberRemoved', { workspaceId: workspace.id, userId: removed });
}

/**
 * The caller leaves the workspace: as a removal, their channel memberships in it go too, and the last
 * admin is refused (409) — they hand the role on or delete the workspace instead.
 */
export async function leaveWorkspace(
  ctx: AppContext,
  caller: Caller,
  workspace: WorkspaceRow,
): Promise<void> {
  await removeMember(ctx, workspace, caller.id, WORKSPACE_MESSAGES.lastAdminLeave);
}
