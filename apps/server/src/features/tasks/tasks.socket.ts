import {
  BOARD_EVENTS,
  BOARD_MESSAGES,
  type BoardChangedEvent,
  watchBoardPayload,
} from '@cohort/shared/boards';
import {
  TASK_EVENTS,
  TASKS_NAMESPACE,
  type TaskChangedEvent,
  type TaskListChangedEvent,
  type TaskNotificationEvent,
} from '@cohort/shared/tasks';
import type { Server, Socket } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { ackOf } from '../../realtime/acks.ts';
import { authenticatedNamespace, type SocketData, userRoom } from '../../realtime/socket-server.ts';
import { loadBoardForUser } from './tasks.access.ts';

export const boardRoom = (boardId: string) => `board:${boardId}`;

export interface TasksRealtime {
  /** After a commit: a task's new state (or null: no longer visible) to every tab of these users. */
  taskChanged(userIds: string[], event: TaskChangedEvent): void;
  /** After a commit: a list's new state (or null: deleted) to every tab of its owner. */
  taskListChanged(ownerId: string, event: TaskListChangedEvent): void;
  /** After a commit: a new notification to every tab of its recipient only. */
  notification(userId: string, event: TaskNotificationEvent): void;
  /** After a commit: the board's change to every socket watching it. */
  boardChanged(event: BoardChangedEvent): void;
  /** A deleted board's watchers leave its room (every node, through the adapter). */
  closeBoard(boardId: string): void;
  /** A removed member's sockets leave these boards' rooms (every node, through the adapter). */
  userLeavesBoards(userId: string, boardIds: string[]): void;
  /**
   * Sockets on this node leave the rooms of the workspace's boards: every socket when the workspace
   * is gone, or only `userId`'s when that member was removed.
   */
  leaveWorkspaceBoards(workspaceId: string, userId?: string): void;
}

/** The boards a socket watches, with each board's workspace (null: personal), so a removal can find them. */
type WatchData = SocketData & { boards?: Map<string, string | null> };

/**
 * `/tasks`: each authenticated socket sits in its user's room, so every open tab of the owner and of
 * the assignees, on every node, hears about a change. A socket may also watch boards it can read
 * (`watchBoard`, checked like GET /api/boards/{id}) and then hears every committed change of them.
 */
export function registerTasksNamespace(ctx: AppContext, io: Server): TasksRealtime {
  const nsp = authenticatedNamespace(ctx, io, TASKS_NAMESPACE);
  const rooms = (userIds: string[]) => [...new Set(userIds)].map(userRoom);

  nsp.on('connection', (socket: Socket) => {
    const data = socket.data as WatchData;
    socket.on(BOARD_EVENTS.watch, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      const parsed = watchBoardPayload.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: BOARD_MESSAGES.boardNotFound });
      try {
        const access = await loadBoardForUser(ctx, data.user, parsed.data.boardId);
        if (socket.disconnected) return;
        data.boards ??= new Map();
        data.boards.set(access.board.id, access.board.workspaceId);
        socket.join(boardRoom(access.board.id));
        reply({ ok: true, rev: access.board.rev });
      } catch (err) {
        if (!(err instanceof HttpError)) ctx.log.error({ err }, 'watchBoard failed');
        reply({ ok: false, error: err instanceof HttpError ? err.message : BOARD_MESSAGES.boardNotFound });
      }
    });
    socket.on(BOARD_EVENTS.unwatch, (payload: unknown, ack: unknown) => {
      const parsed = watchBoardPayload.safeParse(payload);
      if (parsed.success) {
        socket.leave(boardRoom(parsed.data.boardId));
        data.boards?.delete(parsed.data.boardId);
      }
      ackOf(ack)(parsed.success ? { ok: true } : { ok: false, error: BOARD_MESSAGES.boardNotFound });
    });
  });

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
    boardChanged(event) {
      nsp.to(boardRoom(event.boardId)).emit(BOARD_EVENTS.changed, event);
    },
    closeBoard(boardId) {
      nsp.in(boardRoom(boardId)).socketsLeave(boardRoom(boardId));
    },
    userLeavesBoards(userId, boardIds) {
      if (boardIds.length) nsp.in(userRoom(userId)).socketsLeave(boardIds.map(boardRoom));
    },
    leaveWorkspaceBoards(workspaceId, userId) {
      for (const socket of nsp.sockets.values()) {
        const data = socket.data as WatchData;
        if (userId && data.user?.id !== userId) continue;
        for (const [boardId, boardWorkspace] of data.boards ?? []) {
          if (boardWorkspace !== workspaceId) continue;
          socket.leave(boardRoom(boardId));
          data.boards?.delete(boardId);
        }
      }
    },
  };
}
