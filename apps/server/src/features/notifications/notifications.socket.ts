import {
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_NAMESPACE,
  type Notification,
} from '@cohort/shared/notifications';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { authenticatedNamespace, userRoom } from '../../realtime/socket-server.ts';

export interface NotificationsRealtime {
  /** After a commit: a new notification to every tab of its recipient, on every node. */
  push(userId: string, notification: Notification): void;
}

/** `/notifications`: push only; each authenticated socket sits in its user's room. */
export function registerNotificationsNamespace(ctx: AppContext, io: Server): NotificationsRealtime {
  const nsp = authenticatedNamespace(ctx, io, NOTIFICATIONS_NAMESPACE);
  return {
    push(userId, notification) {
      nsp.to(userRoom(userId)).emit(NOTIFICATION_EVENTS.notification, notification);
    },
  };
}
