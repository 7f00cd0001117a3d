import { INVITATION_MESSAGES, INVITATION_TTL_DAYS } from '@cohort/shared/invitations';
import {
  PENDING_INVITATIONS_MAX,
  WORKSPACE_MESSAGES,
  WORKSPACE_SEATS_MAX,
  type WorkspaceRole,
} from '@cohort/shared/workspaces';
import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import {
  channelMembers,
  channels,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import { takeRateLimit } from '../../http/rate-limit.ts';
import type { SessionUser } from '../../http/session.ts';
import { isUuid, type WorkspaceRow } from './workspaces.access.ts';
import { emitMembershipEvent } from './workspaces.events.ts';
import { lockWorkspace, type Tx } from './workspaces.lock.ts';

/**
 * Invitations with consent: the only way into a workspace (besides creating it). Adding someone
 * writes an invitation, its e-mail (outbox) and, for a verified account with that address, an in-app
 * notification, all in one transaction; membership starts only when the invitee accepts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Invitation mails one person may cause per hour, over all their workspaces (a full creation form
 * fits): without it, revoking and inviting again, resending, or creating workspace after workspace
 * would mail any address any number of times.
 */
export const INVITATION_MAILS_PER_HOUR = 250; // INVITATIONS_PER_HOUR's default
/** Resends of one invitation per hour (each mails the same person again). */
export const INVITATION_RESENDS_PER_HOUR = 3;

/**
 * Reserves `count` invitation mails of the inviter's budget (429 when spent), before the
 * transaction that queues them: the reservation is atomic, so racing requests cannot pass it.
 */
export async function reserveInvitationMails(ctx: AppContext, inviterId: string, count: number) {
  const wait = await takeRateLimit(
    ctx,
    `invitation-mail:${inviterId}`,
    ctx.config.INVITATIONS_PER_HOUR,
    HOUR_MS,
    count,
  );
  if (wait !== null) throw new HttpError(429, INVITATION_MESSAGES.mailLimited);
}

export type InvitationRow = typeof workspaceInvitations.$inferSelect;

/** Whoever sends an invitation (named in its e-mail). */
export interface Inviter {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface Person {
  email: string;
  firstName: string;
  lastName: string;
}

export interface MyInvitationView {
  invitation: InvitationRow;
  workspace: { id: string; name: string; description: string };
  inviter: Person | null;
}

export interface WorkspaceInvitationView {
  invitation: InvitationRow;
  inviter: Person | null;
  expired: boolean;
}

/** What a write leaves to do once its transaction has committed. */
export interface InvitationsSent {
  invitationIds: string[];
}

const expiryFrom = (now: Date) => new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS);

/**
 * Publishes `invitationsSent` inside `tx`: the mail feature queues the invitation e-mails and the
 * notifications feature writes their in-app notifications, in this transaction.
 */
async function announceInTransaction(
  ctx: AppContext,
  tx: Tx,
  workspace: WorkspaceRow,
  inviter: Inviter,
  rows: InvitationRow[],
): Promise<InvitationsSent> {
  await ctx.bus.emitStrict('invitationsSent', {
    db: tx,
    workspaceName: workspace.name,
    inviter: {
      id: inviter.id,
      email: inviter.email,
      firstName: inviter.firstName,
      lastName: inviter.lastName,
    },
    invitations: rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: r.role,
      expiresAt: r.expiresAt,
      createdAt: r.createdAt,
    })),
  });
  return { invitationIds: rows.map((r) => r.id) };
}

/** After the commit: send the mail now rather than at the next poll, and push the notifications. */
export async function afterInvitationsSent(ctx: AppContext, sent: InvitationsSent): Promise<void> {
  if (sent.invitationIds.length === 0) return;
  ctx.mail.wake();
  await ctx.bus.emit('invitationsCommitted', { invitationIds: sent.invitationIds });
}

/** New invitations of a workspace (its caller holds the workspace lock or has just created it). */
export async function insertInvitations(
  ctx: AppContext,
  tx: Tx,
  workspace: WorkspaceRow,
  inviter: Inviter,
  invitees: ReadonlyArray<{ email: string; role: WorkspaceRole }>,
): Promise<{ rows: InvitationRow[]; sent: InvitationsSent }> {
  if (invitees.length === 0) return { rows: [], sent: { invitationIds: [] } };
  // Counted under the workspace lock the caller holds: parallel invitations cannot pass the caps.
  const [pending] = await tx
    .select({ n: count() })
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.workspaceId, workspace.id));
  const [members] = await tx
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspace.id));
  const pendingCount = (pending?.n ?? 0) + invitees.length;
  if (pendingCount > PENDING_INVITATIONS_MAX) throw conflict(WORKSPACE_MESSAGES.tooManyPending);
  if (pendingCount + (members?.n ?? 0) > WORKSPACE_SEATS_MAX)
    throw conflict(WORKSPACE_MESSAGES.workspaceFull);
  const now = ctx.now();
  const rows = await tx
    .insert(workspaceInvitations)
    .values(
      invitees.map((i) => ({
        workspaceId: workspace.id,
        email: i.email,
        role: i.role,
        invitedBy: inviter.id,
        createdAt: now,
        expiresAt: expiryFrom(now),
      })),
    )
    .returning();
  return { rows, sent: await announceInTransaction(ctx, tx, workspace, inviter, rows) };
}

/**
 * Invites one address (POST …/members). Refused when it belongs to a member or is already invited;
 * the answer is the same whether or not the address has an account, so it reveals none.
 */
export async function inviteMember(
  ctx: AppContext,
  inviter: Inviter,
  workspace: WorkspaceRow,
  input: { email: string; role: WorkspaceRole },
): Promise<InvitationRow> {
  await reserveInvitationMails(ctx, inviter.id, 1);
  const { row, sent } = await mapUnique(WORKSPACE_MESSAGES.alreadyInvited, () =>
    ctx.db.transaction(async (tx) => {
      const locked = await lockWorkspace(tx, workspace.id);
      const [member] = await tx
        .select({ one: workspaceMembers.userId })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(users.email, input.email)));
      if (member) throw conflict(WORKSPACE_MESSAGES.alreadyMember);
      const [invited] = await tx
        .select({ id: workspaceInvitations.id })
        .from(workspaceInvitations)
        .where(
          and(
            eq(workspaceInvitations.workspaceId, workspace.id),
            eq(workspaceInvitations.email, input.email),
          ),
        );
      if (invited) throw conflict(WORKSPACE_MESSAGES.alreadyInvited);
      const { rows, sent } = await insertInvitations(ctx, tx, locked, inviter, [input]);
      const [first] = rows;
      if (!first) throw new Error('invitation insert returned no row');
      return { row: first, sent };
    }),
  );
  await afterInvitationsSent(ctx, sent);
  return row;
}

async function mapUnique<T>(message: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------
// The invitee's side

const invitationNotFound = () => notFound(INVITATION_MESSAGES.notFound);

/** My pending, unexpired invitations, newest first; none until my address is verified. */
export async function listMyInvitations(ctx: AppContext, user: SessionUser): Promise<MyInvitationView[]> {
  if (!user.emailVerified) return [];
  const rows = await ctx.db
    .select({
      invitation: workspaceInvitations,
      workspace: { id: workspaces.id, name: workspaces.name, description: workspaces.description },
      inviterEmail: users.email,
      inviterFirst: users.firstName,
      inviterLast: users.lastName,
    })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(
      and(
        eq(workspaceInvitations.email, user.email.toLowerCase()),
        gt(workspaceInvitations.expiresAt, ctx.now()),
      ),
    )
    .orderBy(desc(workspaceInvitations.createdAt), asc(workspaces.name));
  return rows.map((r) => ({
    invitation: r.invitation,
    workspace: r.workspace,
    inviter:
      r.inviterEmail === null
        ? null
        : { email: r.inviterEmail, firstName: r.inviterFirst ?? '', lastName: r.inviterLast ?? '' },
  }));
}

/**
 * The invitation `invitationId` when it is addressed to the caller's address; 404 otherwise, so an id
 * says nothing about invitations of other people. (Whether the caller may act on it — a verified
 * address — is invitations.policy.ts's question.)
 */
export async function loadInvitationForUser(
  ctx: AppContext,
  user: SessionUser,
  invitationId: string,
): Promise<InvitationRow> {
  if (!isUuid(invitationId)) throw invitationNotFound();
  const [row] = await ctx.db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.id, invitationId.toLowerCase()));
  if (!row || row.email !== user.email.toLowerCase()) throw invitationNotFound();
  return row;
}

const invitationExpired = () => new HttpError(410, INVITATION_MESSAGES.expired);

/**
 * Turns the invitation into a membership with its role. Under the workspace lock the invitation is
 * deleted and the membership inserted, so accepting twice (even at once) makes one membership; the
 * second answer is the same success.
 */
export async function acceptInvitation(
  ctx: AppContext,
  user: SessionUser,
  invitation: InvitationRow,
): Promise<{ workspace: WorkspaceRow; role: WorkspaceRole }> {
  if (invitation.expiresAt <= ctx.now()) throw invitationExpired();
  const result = await ctx.db.transaction(async (tx) => {
    const workspace = await lockWorkspace(tx, invitation.workspaceId);
    const [taken] = await tx
      .delete(workspaceInvitations)
      .where(
        and(eq(workspaceInvitations.id, invitation.id), eq(workspaceInvitations.email, invitation.email)),
      )
      .returning();
    if (!taken) {
      // Accepted a moment ago (another tab, a double click): answer as that acceptance did.
      const [member] = await tx
        .select({ role: workspaceMembers.role })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, user.id)));
      if (!member) throw invitationNotFound();
      return { workspace, role: member.role, joined: false };
    }
    // Read under the lock: a resend may have renewed it since it was loaded.
    if (taken.expiresAt <= ctx.now()) throw invitationExpired();
    const joined = await tx
      .insert(workspaceMembers)
      .values({ workspaceId: workspace.id, userId: user.id, role: taken.role, joinedAt: ctx.now() })
      .onConflictDoNothing()
      .returning({ role: workspaceMembers.role });
    if (joined.length > 0) {
      // A newcomer starts in every open, unarchived channel (docs/permissions.md, "Joining open
      // channels") and leaves the ones they do not want.
      await tx.execute(sql`
        insert into ${channelMembers} (channel_id, user_id, created_at)
        select c.id, ${user.id}::uuid, ${ctx.now().toISOString()}::timestamptz from ${channels} c
        where c.workspace_id = ${workspace.id}::uuid and not c.is_private and c.archived_at is null
        on conflict do nothing`);
    }
    if (joined.length === 0) {
      const [member] = await tx
        .select({ role: workspaceMembers.role })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, user.id)));
      return { workspace, role: member?.role ?? taken.role, joined: false };
    }
    return { workspace, role: taken.role, joined: true };
  });
  if (result.joined) {
    emitMembershipEvent(ctx, 'memberAdded', {
      workspaceId: result.workspace.id,
      userId: user.id,
      role: result.role,
    });
  }
  return { workspace: result.workspace, role: result.role };
}

/** Declining removes the invitation (expired ones too: nothing is joined by declining). */
export async function declineInvitation(ctx: AppContext, invitation: InvitationRow): Promise<void> {
  await ctx.db.delete(workspaceInvitations).where(eq(workspaceInvitations.id, invitation.id));
}

// ---------------------------------------------------------------------------------------------------
// The admins' side

/** A workspace's pending invitations (expired ones included, so they can be resent), oldest first. */
export async function listWorkspaceInvitations(
  ctx: AppContext,
  workspace: WorkspaceRow,
): Promise<WorkspaceInvitationView[]> {
  const now = ctx.now();
  const rows = await ctx.db
    .select({
      invitation: workspaceInvitations,
      inviterEmail: users.email,
      inviterFirst: users.firstName,
      inviterLast: users.lastName,
    })
    .from(workspaceInvitations)
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(eq(workspaceInvitations.workspaceId, workspace.id))
    .orderBy(asc(workspaceInvitations.createdAt), asc(workspaceInvitations.email));
  return rows.map((r) => ({
    invitation: r.invitation,
    inviter:
      r.inviterEmail === null
        ? null
        : { email: r.inviterEmail, firstName: r.inviterFirst ?? '', lastName: r.inviterLast ?? '' },
    expired: r.invitation.expiresAt <= now,
  }));
}

/** A new expiry and a new e-mail (and notification), sent in the name of the admin who resends. */
export async function resendInvitation(
  ctx: AppContext,
  inviter: Inviter,
  workspace: WorkspaceRow,
  email: string,
): Promise<WorkspaceInvitationView> {
  const resendKey = `invitation-resend:${workspace.id}:${email.trim().toLowerCase()}`;
  if ((await takeRateLimit(ctx, resendKey, INVITATION_RESENDS_PER_HOUR, HOUR_MS)) !== null) {
    throw new HttpError(429, INVITATION_MESSAGES.resendLimited);
  }
  await reserveInvitationMails(ctx, inviter.id, 1);
  const { row, sent } = await ctx.db.transaction(async (tx) => {
    const locked = await lockWorkspace(tx, workspace.id);
    const now = ctx.now();
    const [updated] = await tx
      .update(workspaceInvitations)
      .set({ expiresAt: expiryFrom(now), invitedBy: inviter.id })
      .where(
        and(
          eq(workspaceInvitations.workspaceId, workspace.id),
          eq(workspaceInvitations.email, email.trim().toLowerCase()),
        ),
      )
      .returning();
    if (!updated) throw notFound(WORKSPACE_MESSAGES.invitationNotFound);
    // The notification is new again: dated now, not at the first sending.
    const fresh = { ...updated, createdAt: now };
    return { row: updated, sent: await announceInTransaction(ctx, tx, locked, inviter, [fresh]) };
  });
  await afterInvitationsSent(ctx, sent);
  return {
    invitation: row,
    inviter: { email: inviter.email, firstName: inviter.firstName, lastName: inviter.lastName },
    expired: false,
  };
}

/** Revoking deletes the invitation; its link then leads nowhere and its notification goes with it. */
export async function revokeInvitation(
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
