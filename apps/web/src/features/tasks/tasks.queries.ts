import type { Task, TaskDetail, TaskList, TaskPriority } from '@cohort/shared/tasks';
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

export function useCreateTaskList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => api.post<TaskList>('/api/tasklists', { title }),
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
  move: (taskId: string, newTaskListId: string) =>
    api.put<TaskDetail>(`${taskPath(taskId)}/move`, { newTaskListId }),
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
