import type { BoardChangedEvent } from '@cohort/shared/boards';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { taskLists } from '../../db/schema.ts';
import type { Caller } from '../workspaces/workspaces.access.ts';
import { taskListView } from './task-lists.service.ts';
import { notificationViews } from './task-notifications.service.ts';
import { type BoardScope, type ListAccess, loadTaskForUser, type TaskAccess } from './tasks.access.ts';
import { authorizeTask, type TaskAction } from './tasks.policy.ts';
import {
  presentTask,
  presentTaskDetail,
  presentTaskList,
  presentTaskNotification,
} from './tasks.presenter.ts';
import { getTaskDetail } from './tasks.service.ts';
import type { TasksRealtime } from './tasks.socket.ts';

/**
 * What every task route does after its commit: presents the changed list, task or notifications and
 * pushes them to the tabs of whoever sees them (the per-user events of before boards) and to the
 * sockets watching the board (`boardChanged`, with the rev the change's transaction gave the board);
 * plus load → authorize, the common start of a task route.
 */
export function taskRouteHelpers(ctx: AppContext, realtime: TasksRealtime) {
  /** The board's watchers hear of a committed change (nothing when the request changed nothing). */
  function publishBoard(scope: BoardScope, event: Omit<BoardChangedEvent, 'boardId' | 'rev'>) {
    if (!scope.change) return;
    realtime.boardChanged({
      boardId: scope.board.id,
      rev: scope.change.rev,
      ...(scope.change.order ? { order: scope.change.order } : {}),
      ...event,
    });
  }

  async function publishList(access: ListAccess) {
    const { list } = access;
    const view = presentTaskList(await taskListView(ctx, list));
    realtime.taskListChanged(list.ownerId, { taskListId: list.id, list: view });
    publishBoard(access.board, {
      taskListId: list.id,
      list: { _id: list.id, title: list.title, position: list.position },
    });
    return view;
  }

  /**
   * The task's fresh detail to its creator and assignees (and `null` to `gone`), its front to the
   * board's watchers; `lists` are re-sent to their owners. Returns the detail for the answer.
   */
  async function publishTask(access: TaskAccess, opts: { gone?: string[]; lists?: string[] } = {}) {
    const taskId = access.task.id;
    const view = await getTaskDetail(ctx, taskId);
    const detail = presentTaskDetail(view);
    const event = { taskId, taskListId: view.task.listId };
    realtime.taskChanged([view.task.ownerId, ...view.assignees.map((a) => a.id)], {
      ...event,
      task: detail,
    });
    if (opts.gone?.length) realtime.taskChanged(opts.gone, { ...event, task: null });
    publishBoard(access.board, { taskId, task: presentTask(view) });
    for (const listId of new Set(opts.lists ?? [])) {
      const [list] = await ctx.db.select().from(taskLists).where(eq(taskLists.id, listId));
      if (list) {
        realtime.taskListChanged(list.ownerId, {
          taskListId: list.id,
          list: presentTaskList(await taskListView(ctx, list)),
        });
      }
    }
    return detail;
  }

  /** New notifications, each to its recipient's tabs. */
  async function publishNotifications(ids: string[]) {
    for (const view of await notificationViews(ctx, ids)) {
      realtime.notification(view.notification.userId, presentTaskNotification(view));
    }
  }

  /** load → authorize, the common start of every task route. */
  async function taskFor(caller: Caller, taskId: string, action: TaskAction): Promise<TaskAccess> {
    const access = await loadTaskForUser(ctx, caller, taskId);
    authorizeTask(access.role, action);
    return access;
  }

  return { publishBoard, publishList, publishTask, publishNotifications, taskFor };
}
