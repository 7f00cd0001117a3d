import type { Task, TaskActivityItem, TaskDetail, TaskList, TaskNotification } from '@cohort/shared/tasks';
import type { TaskListView } from './task-lists.service.ts';
import type { TaskNotificationView } from './task-notifications.service.ts';
import type { PersonView } from './tasks.access.ts';
import type { TaskView } from './tasks.service.ts';

/** The only shapes in which tasks and task lists leave the server, over HTTP and over sockets. */

const presentPerson = (p: PersonView) => ({ firstName: p.firstName, lastName: p.lastName, email: p.email });

export function presentTask(v: TaskView): Task {
  const t = v.task;
  return {
    _id: t.id,
    title: t.title,
    description: t.description,
    priority: t.priority,
    createdBy: v.ownerEmail,
    taskListId: t.listId,
    labels: v.labels,
    checklist: v.checklist.map((c) => ({ _id: c.id, title: c.title, status: c.done })),
    assignedTo: v.assignees.map((a) => ({ _id: a.id, ...presentPerson(a) })),
    dates: { deadline: t.deadline?.toISOString() ?? null },
    comments: v.comments.map(({ comment, user }) => ({
      _id: comment.id,
      text: comment.text,
      time: comment.createdAt.toISOString(),
      user: presentPerson(user),
    })),
    archived: t.archivedAt !== null,
    position: t.position,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export function presentTaskActivity(a: TaskView['activity'][number]): TaskActivityItem {
  return {
    _id: a.entry.id,
    action: a.entry.action,
    detail: a.entry.detail,
    user: a.user ? presentPerson(a.user) : null,
    time: a.entry.createdAt.toISOString(),
  };
}

export function presentTaskDetail(v: TaskView): TaskDetail {
  return { ...presentTask(v), activity: v.activity.map(presentTaskActivity) };
}

export function presentTaskList(v: TaskListView): TaskList {
  return {
    _id: v.list.id,
    name: v.list.title,
    title: v.list.title,
    createdBy: v.ownerEmail,
    position: v.list.position,
    cards: [],
    tasks: v.tasks.map(presentTask),
  };
}

export function presentTaskNotification(v: TaskNotificationView): TaskNotification {
  const n = v.notification;
  return {
    _id: n.id,
    kind: n.kind,
    task: { _id: v.task.id, title: v.task.title, taskListId: v.task.listId },
    actor: v.actor ? presentPerson(v.actor) : null,
    createdAt: n.createdAt.toISOString(),
    read: n.readAt !== null,
  };
}
