import {
  TASK_EVENTS,
  TASKS_NAMESPACE,
  type TaskChangedEvent,
  type TaskListChangedEvent,
  type TaskNotificationEvent,
} from '@cohort/shared/tasks';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { authenticatedNamespace, userRoom } from '../../realtime/socket-server.ts';

export interface TasksRealtime {
  /** After a commit: a task's new state (or null: no longer visible) to every tab of these users. */
  taskChanged(userIds: string[], event: TaskChangedEvent): void;
  /** After a commit: a list's new state (or null: deleted) to every tab of its owner. */
  taskListChanged(ownerId: string, event: TaskListChangedEvent): void;
  /** After a commit: a new notification to every tab of its recipient only. */
  notification(userId: string, event: TaskNotificationEvent): void;
}

/**
 * `/tasks`: push only. Each authenticated socket sits in its user's room, so every open tab of the
 * owner and of the assignees, on every node, hears about a change; clients never send anything.
 */
export function registerTasksNamespace(ctx: AppContext, io: Server): TasksRealtime {
  const nsp = authenticatedNamespace(ctx, io, TASKS_NAMESPACE);
  const rooms = (userIds: string[]) => [...new Set(userIds)].map(userRoom);
  return {
    taskChanged(userIds, event) {
      if (userIds.length) nsp.to(rooms(userIds)).emit(TASK_EVENTS.taskChanged, event);
    },
    taskListChanged(ownerId, event) {
      nsp.to(userRoom(ownerId)).emit(TASK_EVENTS.taskListChanged, event);
    },
    notification(userId, event) {
      nsp.to(userRoom(userId)).emit(TASK_EVENTS.notification, event);
    },
  };
}
