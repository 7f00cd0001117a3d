import { BOARD_EVENTS, type BoardChangedEvent, type BoardDetail } from '@cohort/shared/boards';
import { TASKS_NAMESPACE } from '@cohort/shared/tasks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectNamespace } from '../../lib/socket.ts';
import { applyBoardChanged } from './board-events.ts';
import { boardKeys } from './boards.queries.ts';
import { taskKeys } from './tasks.queries.ts';

const ACK_TIMEOUT_MS = 10_000;

/**
 * Watches the open board on `/tasks`: each `boardChanged` patches the cached GET /api/boards/{id};
 * a gap in `rev` or a reconnection refetches it (a backfill, not a reload). Leaving or switching
 * boards unwatches it.
 */
export function useLiveBoard(boardId: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!boardId) return;
    const socket = connectNamespace(TASKS_NAMESPACE);
    const key = boardKeys.detail(boardId);
    const refetch = () => {
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
    };
    const onChanged = (raw: unknown) => {
      const event = raw as BoardChangedEvent;
      if (event.boardId !== boardId) return;
      void queryClient.invalidateQueries({ queryKey: boardKeys.activity(boardId) });
      if (event.deleted || event.board) void queryClient.invalidateQueries({ queryKey: boardKeys.all() });
      if (event.deleted) {
        refetch();
        return;
      }
      const taskId = event.taskId ?? event.task?._id;
      // An open card shows comments, attachments and history: it reloads itself.
      if (taskId) void queryClient.invalidateQueries({ queryKey: taskKeys.detail(taskId) });
      const current = queryClient.getQueryData<BoardDetail>(key);
      if (!current) return;
      const next = applyBoardChanged(current, event);
      if (next === 'refetch') refetch();
      else if (next !== 'stale') queryClient.setQueryData(key, next);
    };
    let connectedBefore = false;
    const onConnect = () => {
      socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck(BOARD_EVENTS.watch, { boardId })
        .then((ack: { ok?: boolean; rev?: number }) => {
          // Changes committed between our read of the board and joining its room: fetch them.
          const current = queryClient.getQueryData<BoardDetail>(key);
          if (ack?.ok && typeof ack.rev === 'number' && current && ack.rev > current.rev) refetch();
        })
        .catch(() => {
          // No live updates for now; the next reconnection tries again.
        });
      // Pushes missed while disconnected: fetch the board again.
      if (connectedBefore) refetch();
      connectedBefore = true;
    };
    socket.on(BOARD_EVENTS.changed, onChanged);
    socket.on('connect', onConnect);
    return () => {
      if (socket.connected) socket.emit(BOARD_EVENTS.unwatch, { boardId });
      socket.off(BOARD_EVENTS.changed, onChanged);
      socket.off('connect', onConnect);
      socket.disconnect();
    };
  }, [boardId, queryClient]);
}
