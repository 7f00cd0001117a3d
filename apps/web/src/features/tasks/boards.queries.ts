import type { Board, BoardActivityItem, BoardDetail } from '@cohort/shared/boards';
import type { Task, TaskDetail, TaskList, TaskSourceMessage } from '@cohort/shared/tasks';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { taskKeys } from './tasks.queries.ts';

/**
 * Boards (issue 20). A board's detail sits under `tasks` too, so a task change refreshes it; the live
 * hooks leave it out of their blanket refresh (`notBoardDetail`): `boardChanged` patches it instead.
 */
export const boardKeys = {
  all: () => [...taskKeys.all, 'boards'] as const,
  detail: (boardId: string) => [...taskKeys.all, 'board', boardId] as const,
  activity: (boardId: string) => [...taskKeys.all, 'board-activity', boardId] as const,
};

/** For invalidations that should leave open boards alone (they are patched live). */
export const notBoardDetail = {
  predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[1] !== 'board',
};

const boardPath = (boardId: string) => `/api/boards/${encodeURIComponent(boardId)}`;

/** The caller's boards: the personal board first, then each workspace's boards. */
export const boardsQuery = queryOptions({
  queryKey: boardKeys.all(),
  queryFn: ({ signal }) => api.get<Board[]>('/api/boards', signal),
  staleTime: 30_000,
});

export const boardQuery = (boardId: string) =>
  queryOptions({
    queryKey: boardKeys.detail(boardId),
    queryFn: ({ signal }) => api.get<BoardDetail>(boardPath(boardId), signal),
  });

export const boardActivityQuery = (boardId: string) =>
  queryOptions({
    queryKey: boardKeys.activity(boardId),
    queryFn: ({ signal }) => api.get<BoardActivityItem[]>(`${boardPath(boardId)}/activity`, signal),
  });

export const boardApi = {
  create: (workspaceName: string, title: string) =>
    api.post<Board>(`/api/workspaces/${encodeURIComponent(workspaceName)}/boards`, { title }),
  rename: (boardId: string, title: string) => api.patch<Board>(boardPath(boardId), { title }),
  remove: (boardId: string) => api.delete<null>(boardPath(boardId)),
  createList: (boardId: string, title: string) => api.post<TaskList>('/api/tasklists', { title, boardId }),
  createTask: (body: {
    title: string;
    description: string;
    priority: Task['priority'];
    taskListId: string;
    source?: TaskSourceMessage;
  }) => api.post<TaskDetail>('/api/tasks', body),
  attach: (taskId: string, fileId: string) =>
    api.post<TaskDetail>(`/api/tasks/${encodeURIComponent(taskId)}/attachments`, { fileId }),
  detach: (taskId: string, fileId: string) =>
    api.delete<TaskDetail>(
      `/api/tasks/${encodeURIComponent(taskId)}/attachments/${encodeURIComponent(fileId)}`,
    ),
};

/** Creates, renames or deletes a board, then refreshes the switcher. */
export function useBoardAdmin() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: boardKeys.all() });
  return {
    create: useMutation({
      mutationFn: ({ workspaceName, title }: { workspaceName: string; title: string }) =>
        boardApi.create(workspaceName, title),
      onSuccess: refresh,
    }),
    rename: useMutation({
      mutationFn: ({ boardId, title }: { boardId: string; title: string }) => boardApi.rename(boardId, title),
      onSuccess: (board) => {
        queryClient.setQueryData<BoardDetail>(boardKeys.detail(board._id), (old) =>
          old ? { ...old, title: board.title } : old,
        );
        return refresh();
      },
    }),
    remove: useMutation({
      mutationFn: (boardId: string) => boardApi.remove(boardId),
      onSuccess: (_r, boardId) => {
        queryClient.removeQueries({ queryKey: boardKeys.detail(boardId) });
        return refresh();
      },
    }),
  };
}

/** The board /task opens: the last one used (while still one of mine), else the personal board. */
const LAST_BOARD_KEY = 'lastBoardId';
export function readLastBoard(): string | null {
  try {
    return localStorage.getItem(LAST_BOARD_KEY);
  } catch {
    return null;
  }
}
export function rememberLastBoard(boardId: string) {
  try {
    localStorage.setItem(LAST_BOARD_KEY, boardId);
  } catch {
    // Storage may be unavailable: /task then opens the personal board.
  }
}
export function defaultBoardId(boards: Board[] | undefined): string | undefined {
  if (!boards?.length) return undefined;
  const last = readLastBoard();
  return (boards.find((b) => b._id === last) ?? boards.find((b) => !b.workspace) ?? boards[0])?._id;
}

export const boardPathOf = (boardId: string) => `/task/board/${encodeURIComponent(boardId)}`;
