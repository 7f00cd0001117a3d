import type { Notification } from '@cohort/shared/notifications';
import type { AppContext } from '../../context.ts';
import { messageNotifications } from '../../db/schema.ts';
import { presentMessageNotification } from './notifications.presenter.ts';
import { loadMessageNotifications } from './notifications.service.ts';

type Push = (userId: string, notification: Notification) => void;

/**
 * A call that rang out becomes a `missed_call` notification for the callee (the caller is its actor),
 * stored and pushed to the callee's open tabs. The calls feature only publishes `callMissed`.
 * Returns what unsubscribes.
 */
export function subscribeMissedCallNotifications(ctx: AppContext, push: Push): () => void {
  return ctx.bus.on('callMissed', async ({ calleeId, callerId }) => {
    const [row] = await ctx.db
      .insert(messageNotifications)
      .values({ userId: calleeId, kind: 'missed_call', actorId: callerId, createdAt: ctx.now() })
      .returning({ id: messageNotifications.id });
    if (!row) return;
    for (const { userId, view } of await loadMessageNotifications(ctx, [row.id])) {
      push(userId, presentMessageNotification(view));
    }
  });
}
