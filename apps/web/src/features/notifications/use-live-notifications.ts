import { displayName } from '@cohort/shared/names';
import {
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_NAMESPACE,
  type Notification,
} from '@cohort/shared/notifications';
import { TASK_EVENTS, TASKS_NAMESPACE, type TaskNotificationEvent } from '@cohort/shared/tasks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { connectNamespace } from '../../lib/socket.ts';
import { notificationKeys } from './notifications.queries.ts';

/** What a desktop notification says. */
export interface DesktopNotice {
  id: string;
  title: string;
  body: string;
  link: string;
}

export const KIND_TITLES: Record<Notification['kind'], string> = {
  mention: 'mentioned you',
  direct: 'sent you a message',
  thread: 'replied in a thread',
  invitation: 'invited you to a workspace',
  missed_call: 'called you',
  assigned: 'assigned you a task',
  comment: 'commented on a task',
  due: 'Task due soon',
};

export function describe(n: Pick<Notification, 'kind' | 'actor'>): string {
  if (n.kind === 'due' || !n.actor) return KIND_TITLES[n.kind];
  return `${n.actor.name || n.actor.email} ${KIND_TITLES[n.kind]}`;
}

const fromMessage = (n: Notification): DesktopNotice => ({
  id: n._id,
  title: describe(n),
  body: n.text,
  link: n.link,
});
const fromTask = (n: TaskNotificationEvent): DesktopNotice => ({
  id: n._id,
  title: describe({
    kind: n.kind,
    actor: n.actor ? { _id: '', email: n.actor.email, name: displayName(n.actor) } : null,
  }),
  body: n.task.title,
  link: `/tasks/${n.task._id}`,
});

/**
 * A desktop notification for a push that arrives while the tab is hidden, if the user allowed them
 * (permission is asked from the panel's button, never on load). Clicking it focuses the tab and
 * opens the notification's link.
 */
export function showDesktopNotice(notice: DesktopNotice, open: (link: string) => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (document.visibilityState !== 'hidden') return;
  const shown = new Notification(notice.title, { body: notice.body, tag: notice.id });
  shown.onclick = () => {
    window.focus();
    open(notice.link);
    shown.close();
  };
}

/**
 * Live notifications for the signed-in user: `/notifications` (mentions, DMs, thread replies) and
 * `/tasks` (task notifications) pushes refresh the bell and the mention badges, and raise a desktop
 * notification when the tab is hidden.
 */
export function useLiveNotifications(enabled: boolean) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    if (!enabled) return;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    };
    const open = (link: string) => navigateRef.current(link);
    const messages = connectNamespace(NOTIFICATIONS_NAMESPACE);
    const tasks = connectNamespace(TASKS_NAMESPACE);
    const onMessage = (n: Notification) => {
      refresh();
      // A new invitation also changes the pending invitations (the navbar's count, /invitations).
      if (n.kind === 'invitation') void queryClient.invalidateQueries({ queryKey: ['invitations'] });
      showDesktopNotice(fromMessage(n), open);
    };
    const onTask = (n: TaskNotificationEvent) => {
      refresh();
      showDesktopNotice(fromTask(n), open);
    };
    messages.on(NOTIFICATION_EVENTS.notification, onMessage);
    tasks.on(TASK_EVENTS.notification, onTask);
    // A reconnection may have missed pushes: refetch then.
    let connectedBefore = false;
    const onConnect = () => {
      if (connectedBefore) refresh();
      connectedBefore = true;
    };
    messages.on('connect', onConnect);
    return () => {
      messages.off(NOTIFICATION_EVENTS.notification, onMessage);
      tasks.off(TASK_EVENTS.notification, onTask);
      messages.off('connect', onConnect);
      messages.disconnect();
      tasks.disconnect();
    };
  }, [enabled, queryClient]);
}
