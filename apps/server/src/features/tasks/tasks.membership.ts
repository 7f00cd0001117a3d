import type { AppContext } from '../../context.ts';
import { membershipEvents } from '../workspaces/workspaces.events.ts';
import { dropStrandedAssignments } from './tasks.service.ts';
import type { TasksRealtime } from './tasks.socket.ts';

/**
 * When people stop sharing a workspace (a member removed, a workspace deleted), their assignments
 * on each other's tasks end: the rows go, and the former assignee's tabs get `task: null`. Returns
 * what unsubscribes (the emitter is process-wide).
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
  membershipEvents.on('memberRemoved', run);
  membershipEvents.on('workspaceDeleted', run);
  return () => {
    membershipEvents.off('memberRemoved', run);
    membershipEvents.off('workspaceDeleted', run);
  };
}
