import { displayName } from '@cohort/shared/names';
import { excerptOf, type Notification } from '@cohort/shared/notifications';
import type { TaskNotificationFeedRow } from '../tasks/tasks.access.ts';
import type { FeedItem, MessageNotificationView, Person } from './notifications.service.ts';

/** The only shape a notification (message or task) leaves the server in, over HTTP and sockets. */

const presentActor = (p: Person | null) => (p ? { _id: p.id, email: p.email, name: displayName(p) } : null);

/** Where the web app opens it: the message in its channel (and thread), the DM, the invitation, or the task. */
function linkOf(v: MessageNotificationView): string {
  // A missed call opens the video page ready to call back.
  if (v.kind === 'missed_call')
    return v.actor ? `/video?${new URLSearchParams({ call: v.actor.email })}` : '/video';
  if (v.invitation) return `/invitations?${new URLSearchParams({ focus: v.invitation.id })}`;
  if (v.channelId && v.workspaceId && v.channelMessageId) {
    const params = new URLSearchParams({ message: v.channelMessageId });
    if (v.parentId) params.set('thread', v.parentId);
    return `/workspace/${v.workspaceId}/channel/${v.channelId}?${params}`;
  }
  return v.actor ? `/chat?${new URLSearchParams({ with: v.actor.email })}` : '/chat';
}

export function presentMessageNotification(v: MessageNotificationView): Notification {
  return {
    _id: v.id,
    kind: v.kind,
    actor: presentActor(v.actor),
    createdAt: v.createdAt.toISOString(),
    read: v.readAt !== null,
    text: v.invitation
      ? excerptOf(`${v.invitation.workspaceName} (as ${v.invitation.role})`)
      : v.kind === 'missed_call'
        ? 'Missed call'
        : excerptOf(v.content),
    link: linkOf(v),
    channelId: v.channelId,
    workspaceId: v.workspaceId,
  };
}

export function presentTaskFeedNotification(v: TaskNotificationFeedRow): Notification {
  return {
    _id: v.id,
    kind: v.kind,
    actor: presentActor(v.actor),
    createdAt: v.createdAt.toISOString(),
    read: v.readAt !== null,
    text: excerptOf(v.task.title),
    link: `/tasks/${v.task.id}`,
    channelId: null,
    workspaceId: null,
  };
}

export const presentFeedItem = (item: FeedItem): Notification =>
  item.source === 'message' ? presentMessageNotification(item.view) : presentTaskFeedNotification(item.view);
