import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import { taskAssignees, taskBoards, taskLists, tasks } from '../../db/schema.ts';
import { isWorkspaceMemberSql, sharesWorkspaceSql } from '../workspaces/workspaces.access.ts';
import { createDefaultBoard } from './boards.service.ts';
import type { TasksRealtime } from './tasks.socket.ts';

/**
 * The tasks feature's reactions to workspace changes: a new workspace gets its first board (in the
 * workspace's transaction); when people stop sharing a workspace (a member removed, a workspace
 * deleted) their assignments end — the rows go, and the former assignee's tabs get `task: null` —
 * and their sockets stop watching its boards. Returns what unsubscribes (on app close).
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
  const offs = [
    ctx.bus.on('workspaceCreated', ({ db, workspaceId, createdBy }) =>
      createDefaultBoard(db, workspaceId, createdBy, ctx.now()),
    ),
    ctx.bus.on('memberRemoved', async ({ workspaceId, userId }) => {
      run();
      realtime.leaveWorkspaceBoards(workspaceId, userId);
      try {
        const boards = await ctx.db
          .select({ id: taskBoards.id })
          .from(taskBoards)
          .where(eq(taskBoards.workspaceId, workspaceId));
        realtime.userLeavesBoards(
          userId,
          boards.map((b) => b.id),
        );
      } catch (err) {
        ctx.log.error({ err }, 'removing a former member from board rooms failed');
      }
    }),
    ctx.bus.on('workspaceDeleted', ({ workspaceId }) => {
      run();
      realtime.leaveWorkspaceBoards(workspaceId);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

// ---------------------------------------------------------------------------------------------------
// Membership: an assignee must be able to reach the task's board.

export interface DroppedAssignment {
  taskId: string;
  listId: string;
  userId: string;
}

/**
 * Deletes every assignment whose assignee may no longer be on the task: on a team board, someone who
 * is no longer a member of its workspace; on a personal board, someone who no longer shares a
 * workspace with its owner — as a removal deletes private-channel memberships: whoever leaves stops
 * reading and working on those tasks, and is not given them back if added again. One statement over
 * all tasks, so running it twice, or for another change, is harmless.
 */
export async function dropStrandedAssignments(ctx: AppContext): Promise<DroppedAssignment[]> {
  return rowsOf<DroppedAssignment>(
    await ctx.db.execute(sql`
    delete from ${taskAssignees} as ta
    using ${tasks} as t, ${taskLists} as l, ${taskBoards} as b
    where ta.task_id = t.id and l.id = t.list_id and b.id = l.board_id
      and case when b.workspace_id is not null
        then not ${isWorkspaceMemberSql(sql`b.workspace_id`, sql`ta.user_id`)}
        else ta.user_id <> b.owner_id and not ${sharesWorkspaceSql(sql`b.owner_id`, sql`ta.user_id`)}
      end
    returning ta.task_id as "taskId", t.list_id as "listId", ta.user_id as "userId"
  `),
  );
}
