import type { AppContext } from '../../context.ts';
import { dropStrandedAssignments } from './tasks.service.ts';
import type { TasksRealtime } from './tasks.socket.ts';

/**
 * When people stop sharing a workspace (a member removed, a workspace deleted), their assignments
 * on each other's tasks end: the rows go, and the former assignee's tabs get `task: null`. Returns
 * what unsubscribes (on app close).
 */
export function endAssignmentsOnLeave(ctx: AppContext, realtime: TasksRealtime): () => void {
  const run = () => {
    dropStrandedAssignments(ctx)
      .then((dropped) => {
        for (const { taskId, listId, userId } of dropped) {
          realtime.taskChanged([userId], { taskId, taskListId: listId, task: null });
        }
      })
      .catch((err) => ctx.log.error({ err }, 'ending the assignments of a former member failed'));
  };
  const offs = [ctx.bus.on('memberRemoved', run), ctx.bus.on('workspaceDeleted', run)];
  return () => {
    for (const off of offs) off();
  };
}
