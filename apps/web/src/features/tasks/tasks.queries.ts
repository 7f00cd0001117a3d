import { displayName } from '@cohort/shared/names';
import type {
  ReadAllTaskNotificationsResponse,
  Task,
  TaskDetail,
  TaskList,
  TaskNotification,
  TaskPriority,
} from '@cohort/shared/tasks';
import type { MemberListItem, WorkspaceSummary } from '@cohort/shared/workspaces';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** Every task query sits under `tasks`, so one invalidation refreshes the whole board. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'lists'] as const,
  ofList: (taskListId: string) => [...taskKeys.all, 'of-list', taskListId] as const,
  detail: (taskId: string) => [...taskKeys.all, 'detail', taskId] as const,
  archived: () => [...taskKeys.all, 'archived'] as const,
  assigned: () => [...taskKeys.all, 'assigned'] as const,
  notifications: () => [...taskKeys.all, 'notifications'] as const,
};

const taskPath = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}`;

export const taskListsQuery = queryOptions({
  queryKey: taskKeys.lists(),
  queryFn: ({ signal }) => api.get<TaskList[]>('/api/tasklists', signal),
});

export const tasksOfListQuery = (taskListId: string) =>
  queryOptions({
    queryKey: taskKeys.ofList(taskListId),
    queryFn: ({ signal }) =>
      api.get<Task[]>(`/api/tasks?taskListId=${encodeURIComponent(taskListId)}`, signal),
  });

export const taskQuery = (taskId: string) =>
  queryOptions({
    queryKey: taskKeys.detail(taskId),
    queryFn: ({ signal }) => api.get<TaskDetail>(`/api/task/${encodeURIComponent(taskId)}`, signal),
  });

export const archivedTasksQuery = queryOptions({
  queryKey: taskKeys.archived(),
  queryFn: ({ signal }) => api.get<Task[]>('/api/tasks/archived', signal),
});

export const assignedTasksQuery = queryOptions({
  queryKey: taskKeys.assigned(),
  queryFn: ({ signal }) => api.get<Task[]>('/api/tasks/assigned', signal),
});

/** The caller's notifications, newest first. */
export const notificationsQuery = queryOptions({
  queryKey: taskKeys.notifications(),
  queryFn: async ({ signal }) => {
    const items = await api.get<TaskNotification[]>('/api/tasks/notifications', signal);
    return [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  },
});

export const notificationApi = {
  markRead: (id: string) =>
    api.post<TaskNotification>(`/api/tasks/notifications/${encodeURIComponent(id)}/read`),
  markAllRead: () => api.post<ReadAllTaskNotificationsResponse>('/api/tasks/notifications/read-all'),
};

/** Marks one notification (an id) or all of them (null) read, showing it at once. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string | null): Promise<void> => {
      if (id) await notificationApi.markRead(id);
      else await notificationApi.markAllRead();
    },
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: taskKeys.notifications() });
      const before = queryClient.getQueryData<TaskNotification[]>(taskKeys.notifications());
      queryClient.setQueryData<TaskNotification[]>(taskKeys.notifications(), (old) =>
        old?.map((n) => (id === null || n._id === id ? { ...n, read: true } : n)),
      );
      return { before };
    },
    onError: (_err, _id, context) => {
      if (context?.before) queryClient.setQueryData(taskKeys.notifications(), context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.notifications() }),
  });
}

/** A new list on `boardId` (the personal board when absent). */
export function useCreateTaskList(boardId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) =>
      api.post<TaskList>('/api/tasklists', boardId ? { title, boardId } : { title }),
    onSuccess: (list) => {
      queryClient.setQueryData(taskKeys.lists(), (old: TaskList[] | undefined) =>
        old && !old.some((l) => l._id === list._id) ? [...old, list] : old,
      );
      return queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
    },
  });
}

export interface NewTask {
  title: string;
  description: string;
  priority: TaskPriority;
  taskListId: string;
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewTask) => api.post<TaskDetail>('/api/tasks', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}

/** Every change to one task answers with the task (and its activity): the card shows it at once. */
export function useTaskMutation<V>(taskId: string, send: (variables: V) => Promise<TaskDetail | null>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (task) => {
      if (task && typeof task === 'object' && '_id' in task) {
        queryClient.setQueryData(taskKeys.detail(taskId), task);
      }
      return queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });
}

export const taskApi = {
  updateDescription: (taskId: string, description: string) =>
    api.put<TaskDetail>(taskPath(taskId), { description }),
  // A drop shows on the board at once: `keepalive` lets its write reach the server even if the page
  // reloads or closes right after (the browser would otherwise cancel it with the page).
  move: (taskId: string, newTaskListId: string, position?: number) =>
    api.put<TaskDetail>(
      `${taskPath(taskId)}/move`,
      position === undefined ? { newTaskListId } : { newTaskListId, position },
      { keepalive: true },
    ),
  /** Reorders the task within its list (0-based, dense). */
  reorder: (taskId: string, position: number) =>
    api.put<TaskDetail>(`${taskPath(taskId)}/position`, { position }, { keepalive: true }),
  setAssignees: (taskId: string, userIds: string[]) =>
    api.put<TaskDetail>(`${taskPath(taskId)}/assignees`, { userIds }),
  setDeadline: (taskId: string, deadline: string | null) =>
    api.put<TaskDetail>(`${taskPath(taskId)}/deadline`, { deadline }),
  addComment: (taskId: string, text: string) =>
    api.post<TaskDetail>(`${taskPath(taskId)}/comments`, { text }),
  addChecklistItem: (taskId: string, title: string) =>
    api.post<TaskDetail>(`${taskPath(taskId)}/checklist`, { title }),
  setChecklistItem: (taskId: string, itemId: string, status: boolean) =>
    api.put<TaskDetail>(`${taskPath(taskId)}/checklist/${encodeURIComponent(itemId)}`, { status }),
  deleteChecklistItem: (taskId: string, itemId: string) =>
    api.delete<TaskDetail>(`${taskPath(taskId)}/checklist/${encodeURIComponent(itemId)}`),
  addLabel: (taskId: string, label: string) => api.post<TaskDetail>(`${taskPath(taskId)}/labels`, { label }),
  removeLabel: (taskId: string, label: string) =>
    api.delete<TaskDetail>(`${taskPath(taskId)}/labels/${encodeURIComponent(label)}`),
  archive: (taskId: string) => api.post<TaskDetail>(`${taskPath(taskId)}/archive`),
  restore: (taskId: string) => api.post<TaskDetail>(`${taskPath(taskId)}/restore`),
};

const listPath = (taskListId: string) => `/api/tasklists/${encodeURIComponent(taskListId)}`;

export const taskListApi = {
  rename: (taskListId: string, title: string) => api.patch<TaskList>(listPath(taskListId), { title }),
  reorder: (taskListId: string, position: number) => api.patch<TaskList>(listPath(taskListId), { position }),
  remove: (taskListId: string, force: boolean) =>
    api.delete<null>(force ? `${listPath(taskListId)}?force=true` : listPath(taskListId)),
};

/** A person the task owner may assign: an active member of a workspace the owner belongs to. */
export interface Colleague {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export const personName = (p: { firstName: string; lastName: string; email: string }) => displayName(p);

/** Everyone who shares a workspace with the caller (active members, the caller excluded), by name. */
export const colleaguesQuery = (myId: string | undefined) =>
  queryOptions({
    queryKey: [...taskKeys.all, 'colleagues', myId ?? ''] as const,
    queryFn: async ({ signal }) => {
      const workspaces = await api.get<WorkspaceSummary[]>('/api/workspaces', signal);
      const memberLists = await Promise.all(
        workspaces.map((w) =>
          api.get<MemberListItem[]>(`/api/workspaces/${encodeURIComponent(w.name)}/members`, signal),
        ),
      );
      const byId = new Map<string, Colleague>();
      for (const m of memberLists.flat()) {
        if (m.status !== 'active' || !m._id || m._id === myId) continue;
        byId.set(m._id, { _id: m._id, email: m.email, firstName: m.firstName, lastName: m.lastName });
      }
      return [...byId.values()].sort((a, b) => personName(a).localeCompare(personName(b)));
    },
    staleTime: 30_000,
  });

/** "done/total" and the rounded percentage of a checklist (0% when empty). */
export function checklistProgress(checklist: Task['checklist']) {
  const total = checklist.length;
  const done = checklist.filter((item) => item.status).length;
  return { done, total, percent: total === 0 ? 0 : Math.round((done / total) * 100) };
}

/** A deadline as the date input wants it (YYYY-MM-DD), from a date or a date-time. */
export function deadlineInputValue(deadline: string | null) {
  return deadline ? deadline.slice(0, 10) : '';
}

export function formatDeadline(deadline: string | null) {
  if (!deadline) return '';
  const date = new Date(deadline.length === 10 ? `${deadline}T00:00:00` : deadline);
  return Number.isNaN(date.getTime())
    ? deadline
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The plain-text summary Copy puts on the clipboard. */
export function taskSummary(task: Task, listName?: string) {
  const { done, total } = checklistProgress(task.checklist);
  const lines = [
    task.title,
    listName ? `List: ${listName}` : '',
    `Priority: ${task.priority}`,
    task.description ? `Description: ${task.description}` : '',
    task.labels.length ? `Labels: ${task.labels.join(', ')}` : '',
    total ? `Checklist: ${done}/${total}` : '',
    task.dates.deadline ? `Due: ${deadlineInputValue(task.dates.deadline)}` : '',
  ];
  return lines.filter(Boolean).join('\n');
}

/** Recently opened tasks, newest first, kept in localStorage for the sidebar's Recent list. */
const RECENT_KEY = 'recentTasks';
const RECENT_MAX = 5;
export interface RecentTask {
  id: string;
  title: string;
}

export function readRecentTasks(): RecentTask[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (r): r is RecentTask =>
        typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.title === 'string',
    );
  } catch {
    return [];
  }
}

export function rememberRecentTask(task: RecentTask) {
  const next = [task, ...readRecentTasks().filter((r) => r.id !== task.id)].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // Storage may be unavailable; the Recent list simply stays empty.
  }
  return next;
}
