import {
  type addMemberBody,
  type createWorkspaceBody,
  type updateWorkspaceBody,
  WORKSPACE_MESSAGES,
  type WorkspaceRole,
} from '@cohort/shared/workspaces';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext, NewUser } from '../../context.ts';
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

type CreateWorkspaceData = z.output<typeof createWorkspaceBody>;
type UpdateWorkspaceData = z.output<typeof updateWorkspaceBody>;
type AddMemberData = z.output<typeof addMemberBody>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

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

/** Active members (the creator, then by joining time), then pending invitations, per workspace. */
async function membersOf(ctx: AppContext, workspaceIds: string[]): Promise<Map<string, MemberView[]>> {
  const result = new Map<string, MemberView[]>(workspaceIds.map((id) => [id, []]));
  if (workspaceIds.length === 0) return result;
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
    ctx.db
      .select({
        workspaceId: workspaceInvitations.workspaceId,
        email: workspaceInvitations.email,
        role: workspaceInvitations.role,
      })
      .from(workspaceInvitations)
      .where(inArray(workspaceInvitations.workspaceId, workspaceIds))
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
    .select({ workspace: workspaces, creatorEmail: creators })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.id)),
    )
    .orderBy(desc(workspaces.createdAt), asc(workspaces.name));
  const members = await membersOf(
    ctx,
    rows.map((r) => r.workspace.id),
  );
  return rows.map((r) => ({ ...r, members: members.get(r.workspace.id) ?? [] }));
}

export async function listMembers(ctx: AppContext, workspace: WorkspaceRow): Promise<MemberView[]> {
  return (await membersOf(ctx, [workspace.id])).get(workspace.id) ?? [];
}

/** The workspace page: the workspace, its members, the caller's role and the channels they may read. */
export async function getWorkspaceDetail(
  ctx: AppContext,
  caller: Caller,
  access: WorkspaceAccess,
): Promise<WorkspaceDetailView> {
  const { workspace, role } = access;
  const [members, creator, readable] = await Promise.all([
    listMembers(ctx, workspace),
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

/** Takes the workspace row lock: membership changes of one workspace run one at a time. */
async function lockWorkspace(tx: Tx, workspaceId: string, mode: 'update' | 'share' = 'update') {
  const [row] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for(mode);
  if (!row) throw workspaceNotFound();
  return row;
}

/**
 * Creates the workspace with the caller as admin. Listed e-mails with an account become members,
 * the others pending invitations. Repeated e-mails: the last entry wins; the caller's own is ignored.
 */
export async function createWorkspace(
  ctx: AppContext,
  caller: Caller & { email: string },
  body: CreateWorkspaceData,
): Promise<WorkspaceAccess> {
  const byEmail = new Map<string, WorkspaceRole>();
  for (const m of body.members) if (m.email !== caller.email.toLowerCase()) byEmail.set(m.email, m.role);

  await assertNameFree(ctx.db, body.name);
  const { workspace, added } = await mapNameConflict(WORKSPACE_MESSAGES.nameTaken, () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      const [ws] = await tx
        .insert(workspaces)
        .values({ name: body.name, description: body.description, createdBy: caller.id, createdAt: now })
        .returning();
      if (!ws) throw new Error('insert returned no row');
      const emails = [...byEmail.keys()];
      const existing = emails.length
        ? await tx
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.email, emails))
        : [];
      const known = new Map(existing.map((u) => [u.email, u.id]));
      await tx.insert(workspaceMembers).values([
        { workspaceId: ws.id, userId: caller.id, role: 'admin', joinedAt: now },
        ...existing.map((u) => ({
          workspaceId: ws.id,
          userId: u.id,
          role: byEmail.get(u.email) ?? 'viewer',
          joinedAt: now,
        })),
      ]);
      const invitations = emails
        .filter((email) => !known.has(email))
        .map((email) => ({
          workspaceId: ws.id,
          email,
          role: byEmail.get(email) ?? 'viewer',
          invitedBy: caller.id,
          createdAt: now,
        }));
      if (invitations.length) await tx.insert(workspaceInvitations).values(invitations);
      return { workspace: ws, added: existing };
    }),
  );
  for (const u of added) {
    emitMembershipEvent(ctx, 'memberAdded', {
      workspaceId: workspace.id,
      userId: u.id,
      role: byEmail.get(u.email) ?? 'viewer',
    });
  }
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

/** An e-mail with an account becomes a member at once; without one, a pending invitation. */
export async function addMember(
  ctx: AppContext,
  caller: Caller,
  workspace: WorkspaceRow,
  input: AddMemberData,
): Promise<MemberView> {
  const member = await mapNameConflict(WORKSPACE_MESSAGES.alreadyMember, () =>
    ctx.db.transaction(async (tx): Promise<MemberView> => {
      await lockWorkspace(tx, workspace.id);
      const now = ctx.now();
      const [user] = await tx.select().from(users).where(eq(users.email, input.email));
      if (user) {
        const [existing] = await tx
          .select({ role: workspaceMembers.role })
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, user.id)));
        if (existing) throw conflict(WORKSPACE_MESSAGES.alreadyMember);
        await tx
          .insert(workspaceMembers)
          .values({ workspaceId: workspace.id, userId: user.id, role: input.role, joinedAt: now });
        const { id: userId, email, firstName, lastName } = user;
        return { userId, email, firstName, lastName, role: input.role, status: 'active' };
      }
      const [invited] = await tx
        .select({ role: workspaceInvitations.role })
        .from(workspaceInvitations)
        .where(
          and(
            eq(workspaceInvitations.workspaceId, workspace.id),
            eq(workspaceInvitations.email, input.email),
          ),
        );
      if (invited) throw conflict(WORKSPACE_MESSAGES.alreadyInvited);
      await tx.insert(workspaceInvitations).values({
        workspaceId: workspace.id,
        email: input.email,
        role: input.role,
        invitedBy: caller.id,
        createdAt: now,
      });
      return {
        userId: null,
        email: input.email,
        firstName: '',
        lastName: '',
        role: input.role,
        status: 'invited',
      };
    }),
  );
  if (member.userId) {
    emitMembershipEvent(ctx, 'memberAdded', {
      workspaceId: workspace.id,
      userId: member.userId,
      role: member.role,
    });
  }
  return member;
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
async function assertAnotherAdmin(tx: Tx, workspaceId: string) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'admin')));
  if ((row?.n ?? 0) <= 1) throw conflict(WORKSPACE_MESSAGES.lastAdmin);
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
export async function removeMember(ctx: AppContext, workspace: WorkspaceRow, userId: string): Promise<void> {
  const removed = await ctx.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    const current = await loadMember(tx, workspace.id, userId);
    if (current.role === 'admin') await assertAnotherAdmin(tx, workspace.id);
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

export async function removeInvitation(
  ctx: AppContext,
  workspace: WorkspaceRow,
  email: string,
): Promise<void> {
  const deleted = await ctx.db
    .delete(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspace.id),
        eq(workspaceInvitations.email, email.trim().toLowerCase()),
      ),
    )
    .returning({ email: workspaceInvitations.email });
  if (deleted.length === 0) throw notFound(WORKSPACE_MESSAGES.invitationNotFound);
}

/**
 * `ctx.onUserCreated` hook: pending invitations for the new account's e-mail become memberships with
 * the invited role, inside the signup transaction (so a failed signup leaves the invitations).
 */
export async function acceptInvitations(user: NewUser, tx: Db): Promise<void> {
  const email = user.email.toLowerCase();
  const pending = await tx
    .delete(workspaceInvitations)
    .where(eq(workspaceInvitations.email, email))
    .returning();
  if (pending.length === 0) return;
  await tx
    .insert(workspaceMembers)
    .values(pending.map((p) => ({ workspaceId: p.workspaceId, userId: user.id, role: p.role })))
    .onConflictDoNothing();
}
