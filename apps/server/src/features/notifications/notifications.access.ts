import type { Notification } from '@cohort/shared/notifications';
import { and, inArray, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { messageNotifications, users } from '../../db/schema.ts';
import { presentMessageNotification } from './notifications.presenter.ts';
import { loadMessageNotifications } from './notifications.service.ts';

/** What other features may do with notifications: create the ones they cause, and announce them. */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Push = (userId: string, notification: Notification) => void;

// One live channel per built app (tests build several in one process).
const pushers = new WeakMap<AppContext, Push>();

/** Called once by the notifications routes with the `/notifications` namespace's push. */
export function registerNotificationPusher(ctx: AppContext, push: Push): void {
  pushers.set(ctx, push);
}

/**
 * An invitation's in-app notification, written in the transaction that creates or resends it, for
 * the verified account with the invited address (none without one: an unproved address learns
 * nothing). A resent invitation replaces its notification, so it is unread and new again.
 * Answers the ids to announce after the commit.
 */
export async function insertInvitationNotifications(
  tx: Db | Tx,
  invitations: ReadonlyArray<{ invitationId: string; email: string; actorId: string; createdAt: Date }>,
): Promise<string[]> {
  if (invitations.length === 0) return [];
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
  if (rows.length === 0) return [];
  const inserted = await tx
    .insert(messageNotifications)
    .values(rows)
    .returning({ id: messageNotifications.id });
  return inserted.map((r) => r.id);
}

/** After the commit: pushes the given notifications to their recipients' open tabs. */
export async function announceNotifications(ctx: AppContext, ids: readonly string[]): Promise<void> {
  const push = pushers.get(ctx);
  if (!push || ids.length === 0) return;
  try {
    for (const { userId, view } of await loadMessageNotifications(ctx, ids)) {
      push(userId, presentMessageNotification(view));
    }
  } catch (err) {
    // The notification is stored; a failed push only means the bell updates on the next fetch.
    ctx.log.error({ err }, 'notification push failed');
  }
}

/**
 * A call that rang out: a `missed_call` notification for the callee (the caller is its actor),
 * stored and pushed to the callee's open tabs.
 */
export async function notifyMissedCall(
  ctx: AppContext,
  call: { calleeId: string; callerId: string },
): Promise<void> {
  const [row] = await ctx.db
    .insert(messageNotifications)
    .values({ userId: call.calleeId, kind: 'missed_call', actorId: call.callerId, createdAt: ctx.now() })
    .returning({ id: messageNotifications.id });
  if (row) await announceNotifications(ctx, [row.id]);
}
