import type { Board, BoardActivityItem, BoardMember, TaskPreview } from '@cohort/shared/boards';
import type { Task, TaskActivityItem, TaskDetail, TaskList, TaskNotification } from '@cohort/shared/tasks';
import type { TaskListView } from './task-lists.service.ts';
import type { TaskNotificationView } from './task-notifications.service.ts';
import type { BoardAccess, BoardRow, PersonView, TaskListRow } from './tasks.access.ts';
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
    boardId: v.boardId,
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
    attachments: v.attachments.map(({ file, createdAt }) => ({
      _id: file._id,
      name: file.name,
      type: file.type,
      size: file.size,
      url: file.url,
      thumbnailUrl: file.thumbnailUrl,
      createdAt: createdAt.toISOString(),
    })),
    source: presentSource(v),
    archived: t.archivedAt !== null,
    position: t.position,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The message a task was created from, under its workspace's current name (null once that is gone). */
function presentSource(v: TaskView): Task['source'] {
  const t = v.task;
  if (!v.sourceWorkspaceName || !t.sourceChannelId || !t.sourceMessageId) return null;
  return { workspaceName: v.sourceWorkspaceName, channelId: t.sourceChannelId, messageId: t.sourceMessageId };
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
    boardId: v.list.boardId,
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

export function presentTaskPreview(v: TaskView, board: BoardRow, list: TaskListRow): TaskPreview {
  const t = presentTask(v);
  return {
    _id: t._id,
    title: t.title,
    priority: t.priority,
    labels: t.labels,
    dates: t.dates,
    board: { _id: board.id, title: board.title },
    listTitle: list.title,
    archived: t.archived,
  };
}

export function presentBoard(a: BoardAccess): Board {
  return {
    _id: a.board.id,
    title: a.board.title,
    workspace: a.workspace ? { _id: a.workspace.id, name: a.workspace.name } : null,
    role: a.role,
    createdAt: a.board.createdAt.toISOString(),
  };
}

export function presentBoardMember(m: PersonView & { role: BoardMember['role'] }): BoardMember {
  return { _id: m.id, email: m.email, firstName: m.firstName, lastName: m.lastName, role: m.role };
}

export function presentBoardActivity(a: {
  entry: TaskView['activity'][number]['entry'];
  user: PersonView | null;
  task: { id: string; title: string };
}): BoardActivityItem {
  return {
    _id: a.entry.id,
    action: a.entry.action,
    detail: a.entry.detail,
    user: a.user ? presentPerson(a.user) : null,
    task: { _id: a.task.id, title: a.task.title },
    time: a.entry.createdAt.toISOString(),
  };
}
