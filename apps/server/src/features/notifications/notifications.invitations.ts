import type { Notification } from '@cohort/shared/notifications';
import { and, inArray, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { messageNotifications, users } from '../../db/schema.ts';
import { presentMessageNotification } from './notifications.presenter.ts';
import { loadMessageNotifications } from './notifications.service.ts';

type Push = (userId: string, notification: Notification) => void;

/**
 * An invitation's in-app notification, written in the transaction that creates or resends it, for
 * the verified account with the invited address (none without one: an unproved address learns
 * nothing). A resent invitation replaces its notification, so it is unread and new again.
 */
async function insertInvitationNotifications(
  tx: Db,
  invitations: ReadonlyArray<{ invitationId: string; email: string; actorId: string; createdAt: Date }>,
): Promise<void> {
  if (invitations.length === 0) return;
  const invitationIds = invitations.map((i) => i.invitationId);
  await tx.delete(messageNotifications).where(inArray(messageNotifications.invitationId, invitationIds));
  const accounts = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        inArray(
          users.email,
          invitations.map((i) => i.email),
        ),
        isNotNull(users.emailVerifiedAt),
      ),
    );
  const byEmail = new Map(accounts.map((a) => [a.email, a.id]));
  const rows = invitations.flatMap((i) => {
    const userId = byEmail.get(i.email);
    return userId
      ? [
          {
            userId,
            kind: 'invitation' as const,
            actorId: i.actorId,
            invitationId: i.invitationId,
            createdAt: i.createdAt,
          },
        ]
      : [];
  });
  if (rows.length > 0) await tx.insert(messageNotifications).values(rows);
}

/** After the commit: pushes the notifications of these invitations to their recipients' open tabs. */
async function announceInvitationNotifications(ctx: AppContext, push: Push, invitationIds: string[]) {
  try {
    const rows = await ctx.db
      .select({ id: messageNotifications.id })
      .from(messageNotifications)
      .where(inArray(messageNotifications.invitationId, invitationIds));
    if (rows.length === 0) return;
    for (const { userId, view } of await loadMessageNotifications(
      ctx,
      rows.map((r) => r.id),
    )) {
      push(userId, presentMessageNotification(view));
    }
  } catch (err) {
    // The notification is stored; a failed push only means the bell updates on the next fetch.
    ctx.log.error({ err }, 'notification push failed');
  }
}

/**
 * Invitations' notifications, as subscribers of the workspaces feature's events: written inside the
 * transaction of `invitationsSent`, pushed on `invitationsCommitted`. Returns what unsubscribes.
 */
export function subscribeInvitationNotifications(ctx: AppContext, push: Push): () => void {
  const offs = [
    ctx.bus.on('invitationsSent', (e) =>
      insertInvitationNotifications(
        e.db,
        e.invitations.map((i) => ({
          invitationId: i.id,
          email: i.email,
          actorId: e.inviter.id,
          createdAt: i.createdAt,
        })),
      ),
    ),
    ctx.bus.on('invitationsCommitted', (e) => announceInvitationNotifications(ctx, push, e.invitationIds)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
