import { TASK_MESSAGES } from '@cohort/shared/tasks';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { taskAssignees, taskLists, taskNotifications, tasks, workspaceMembers } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { type Caller, isUuid } from '../workspaces/workspaces.access.ts';
import { type TaskRole, taskRoleOf } from './tasks.policy.ts';

/**
 * The one funnel through which a task or a task list is reached on behalf of a user. A list that is
 * not the caller's, and a task the caller neither owns nor is assigned to, are answered exactly like
 * ones that do not exist (404).
 */

export type TaskListRow = typeof taskLists.$inferSelect;
export type TaskRow = typeof tasks.$inferSelect;
export type TaskNotificationRow = typeof taskNotifications.$inferSelect;

export interface TaskAccess {
  task: TaskRow;
  list: TaskListRow;
  role: TaskRole;
  assigneeIds: string[];
}

export const taskNotFound = () => notFound(TASK_MESSAGES.taskNotFound);
export const taskListNotFound = () => notFound(TASK_MESSAGES.listNotFound);

/** The caller's own list `taskListId`, or 404. */
export async function loadTaskListForUser(
  ctx: AppContext,
  caller: Caller,
  taskListId: string,
): Promise<TaskListRow> {
  if (!isUuid(taskListId)) throw taskListNotFound();
  const [row] = await ctx.db
    .select()
    .from(taskLists)
    .where(and(eq(taskLists.id, taskListId), eq(taskLists.ownerId, caller.id)));
  if (!row) throw taskListNotFound();
  return row;
}

/** The caller's own list named `name` (any case), or 404. */
export async function loadTaskListByNameForUser(
  ctx: AppContext,
  caller: Caller,
  name: string,
): Promise<TaskListRow> {
  const [row] = await ctx.db
    .select()
    .from(taskLists)
    .where(and(eq(taskLists.ownerId, caller.id), sql`lower(${taskLists.title}) = lower(${name.trim()})`));
  if (!row) throw taskListNotFound();
  return row;
}

/** The task `taskId` with its list and the caller's role on it (owner or assignee), or 404. */
export async function loadTaskForUser(ctx: AppContext, caller: Caller, taskId: string): Promise<TaskAccess> {
  if (!isUuid(taskId)) throw taskNotFound();
  const [row] = await ctx.db
    .select({ task: tasks, list: taskLists })
    .from(tasks)
    .innerJoin(taskLists, eq(taskLists.id, tasks.listId))
    .where(eq(tasks.id, taskId));
  if (!row) throw taskNotFound();
  const assigneeIds = (
    await ctx.db
      .select({ userId: taskAssignees.userId })
      .from(taskAssignees)
      .where(eq(taskAssignees.taskId, taskId))
  ).map((a) => a.userId);
  const role = taskRoleOf(caller.id, row.list.ownerId, assigneeIds);
  if (!role) throw taskNotFound();
  return { ...row, role, assigneeIds };
}

/**
 * Of `userIds`, those who share at least one workspace with `ownerId` (the owner counts as sharing
 * with themselves). A read-only membership check, as the chat feature does for its rooms.
 */
export async function colleaguesOf(
  ctx: AppContext,
  ownerId: string,
  userIds: string[],
): Promise<Set<string>> {
  const result = new Set(userIds.filter((id) => id === ownerId));
  const others = userIds.filter((id) => id !== ownerId);
  if (others.length === 0) return result;
  const mine = ctx.db
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, ownerId));
  const rows = await ctx.db
    .selectDistinct({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(
      and(
        inArray(workspaceMembers.userId, others),
        ne(workspaceMembers.userId, ownerId),
        inArray(workspaceMembers.workspaceId, mine),
      ),
    );
  for (const r of rows) result.add(r.userId);
  return result;
}

/**
 * The caller's own notification `id` on a task they can still see (owner or assignee), or 404 —
 * someone else's notification is answered exactly like one that does not exist.
 */
export async function loadTaskNotificationForUser(
  ctx: AppContext,
  caller: Caller,
  id: string,
): Promise<TaskNotificationRow> {
  if (!isUuid(id)) throw notFound(TASK_MESSAGES.notificationNotFound);
  const [row] = await ctx.db
    .select()
    .from(taskNotifications)
    .where(and(eq(taskNotifications.id, id), eq(taskNotifications.userId, caller.id)));
  if (!row) throw notFound(TASK_MESSAGES.notificationNotFound);
  const [task] = await ctx.db.select({ ownerId: tasks.ownerId }).from(tasks).where(eq(tasks.id, row.taskId));
  const assignees = await ctx.db
    .select({ userId: taskAssignees.userId })
    .from(taskAssignees)
    .where(eq(taskAssignees.taskId, row.taskId));
  const role = task
    ? taskRoleOf(
        caller.id,
        task.ownerId,
        assignees.map((a) => a.userId),
      )
    : null;
  if (!role) throw notFound(TASK_MESSAGES.notificationNotFound);
  return row;
}
