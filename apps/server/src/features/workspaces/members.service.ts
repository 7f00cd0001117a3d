import { roleCan } from '@cohort/shared/permissions';
import { type addMemberBody, WORKSPACE_MESSAGES, type WorkspaceRole } from '@cohort/shared/workspaces';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import {
  channelMembers,
  channels,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { type Inviter, inviteMember } from './invitations.service.ts';
import { type Caller, isUuid, type WorkspaceRow } from './workspaces.access.ts';
import { emitMembershipEvent } from './workspaces.events.ts';
import { lockWorkspace, type Tx } from './workspaces.lock.ts';

/**
 * Workspace members: who is in a workspace (and, for admins, who is invited), adding one (an
 * invitation), changing a role, removing a member and leaving.
 */

type AddMemberData = z.output<typeof addMemberBody>;

export interface MemberView {
  userId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  role: WorkspaceRole;
  status: 'active' | 'invited';
}

/**
 * Active members (the creator, then by joining time), then pending invitations, per workspace. Only
 * admins see who is invited and with which role: invitations are listed for the workspaces in
 * `withInvitations` only.
 */
export async function membersOf(
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

/** The members of the workspace, as the caller with `role` may see them (invitations: admins only). */
export async function listMembers(
  ctx: AppContext,
  access: { workspace: WorkspaceRow; role: WorkspaceRole },
): Promise<MemberView[]> {
  const { workspace, role } = access;
  const withInvitations = roleCan(role, 'manageMembers') ? [workspace.id] : [];
  return (await membersOf(ctx, [workspace.id], withInvitations)).get(workspace.id) ?? [];
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
