import type { AppContext } from '../../context.ts';
import type { Caller } from '../workspaces/workspaces.access.ts';
import { taskListView } from './task-lists.service.ts';
import { notificationViews } from './task-notifications.service.ts';
import { loadTaskForUser, loadTaskListForUser, type TaskAccess, type TaskListRow } from './tasks.access.ts';
import { authorizeTask, type TaskAction } from './tasks.policy.ts';
import { presentTaskDetail, presentTaskList, presentTaskNotification } from './tasks.presenter.ts';
import { getTaskDetail } from './tasks.service.ts';
import type { TasksRealtime } from './tasks.socket.ts';

/**
 * What every task route does after its commit: presents the changed list, task or notifications and
 * pushes them to the tabs of whoever sees them; plus load → authorize, the common start of a task route.
 */
export function taskRouteHelpers(ctx: AppContext, realtime: TasksRealtime) {
  async function publishList(list: TaskListRow) {
    const view = presentTaskList(await taskListView(ctx, list));
    realtime.taskListChanged(list.ownerId, { taskListId: list.id, list: view });
    return view;
  }

  /** The task's fresh detail to its owner and assignees (and `null` to `gone`); returned for the answer. */
  async function publishTask(taskId: string, opts: { gone?: string[]; lists?: string[] } = {}) {
    const view = await getTaskDetail(ctx, taskId);
    const detail = presentTaskDetail(view);
    const event = { taskId, taskListId: view.task.listId };
    realtime.taskChanged([view.task.ownerId, ...view.assignees.map((a) => a.id)], {
      ...event,
      task: detail,
    });
    if (opts.gone?.length) realtime.taskChanged(opts.gone, { ...event, task: null });
    for (const listId of opts.lists ?? []) {
      await publishList(await loadTaskListForUser(ctx, { id: view.task.ownerId }, listId));
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

  return { publishList, publishTask, publishNotifications, taskFor };
}
