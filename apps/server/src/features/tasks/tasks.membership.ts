import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { taskAssignees, taskLists, tasks } from '../../db/schema.ts';
import { sharesWorkspaceSql } from '../workspaces/workspaces.access.ts';
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

// ---------------------------------------------------------------------------------------------------
// Membership: an assignee is a colleague of the owner, and stops being one with the last shared workspace.

export interface DroppedAssignment {
  taskId: string;
  listId: string;
  userId: string;
}

/**
 * Deletes every assignment whose assignee no longer shares a workspace with the task's owner (a
 * member removed, a workspace deleted), as a removal deletes private-channel memberships: whoever
 * leaves stops reading and working on their former colleagues' tasks, and is not given them back
 * if added again. One statement over all tasks, so running it twice, or for another change, is harmless.
 */
export async function dropStrandedAssignments(ctx: AppContext): Promise<DroppedAssignment[]> {
  const result = (await ctx.db.execute(sql`
    delete from ${taskAssignees} as ta
    using ${tasks} as t, ${taskLists} as l
    where ta.task_id = t.id and l.id = t.list_id and ta.user_id <> l.owner_id
      and not ${sharesWorkspaceSql(sql`l.owner_id`, sql`ta.user_id`)}
    returning ta.task_id as "taskId", t.list_id as "listId", ta.user_id as "userId"
  `)) as unknown as { rows: DroppedAssignment[] } | DroppedAssignment[];
  return Array.isArray(result) ? result : result.rows;
}
