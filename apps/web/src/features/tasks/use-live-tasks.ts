import { TASK_EVENTS, TASKS_NAMESPACE } from '@cohort/shared/tasks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectNamespace } from '../../lib/socket.ts';
import { notBoardDetail } from './boards.queries.ts';
import { taskKeys } from './tasks.queries.ts';

/**
 * Keeps every open tab in sync: the server pushes task and list changes over `/tasks` to everyone
 * who can see them, and each push refreshes the taskboard's queries.
 */
export function useLiveTasks() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = connectNamespace(TASKS_NAMESPACE);
    const refresh = () => {
      // Open boards are patched by their own `boardChanged` events (use-live-board.ts).
      void queryClient.invalidateQueries({ queryKey: taskKeys.all, ...notBoardDetail });
    };
    socket.on(TASK_EVENTS.taskChanged, refresh);
    socket.on(TASK_EVENTS.taskListChanged, refresh);
    socket.on(TASK_EVENTS.notification, refresh);
    // A reconnection may have missed pushes; the first connection follows a fresh load.
    let connectedBefore = false;
    const onConnect = () => {
      if (connectedBefore) refresh();
      connectedBefore = true;
    };
    socket.on('connect', onConnect);
    return () => {
      socket.off(TASK_EVENTS.taskChanged, refresh);
      socket.off(TASK_EVENTS.taskListChanged, refresh);
      socket.off(TASK_EVENTS.notification, refresh);
      socket.off('connect', onConnect);
      socket.disconnect();
    };
  }, [queryClient]);
}
