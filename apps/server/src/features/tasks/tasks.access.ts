import { TASK_MESSAGES } from '@cohort/shared/tasks';
import { and, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { taskAssignees, taskLists, taskNotifications, tasks, users } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { type Caller, isUuid } from '../workspaces/workspaces.access.ts';
import { type TaskRole, taskRoleOf } from './tasks.policy.ts';

/**
 * The one funnel through which a task or a task list is reached on behalf of a user. A list that is
 * not the caller's, and a task the caller neither owns nor is assigned to, are answered exactly like
 * ones that do not exist (404).
 */

export interface PersonView {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The columns of a person shown beside a task (assignee, commenter, actor). */
export const person = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** A transaction of the tasks feature's writes, or either it or the database. */
export type { Tx };
export type Exec = Db | Tx;

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

// -- For the notification centre (features/notifications merges these with message notifications) ---

export interface TaskNotificationFeedRow {
  id: string;
  kind: 'assigned' | 'comment' | 'due';
  createdAt: Date;
  readAt: Date | null;
  task: { id: string; title: string };
  actor: { id: string; email: string; firstName: string; lastName: string } | null;
}

/** Only notifications on tasks the user still sees (owner or assignee). */
const stillVisible = (userId: string) =>
  or(
    eq(tasks.ownerId, userId),
    sql`exists (select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id} and ${taskAssignees.userId} = ${userId}::uuid)`,
  );

/**
 * A page of the user's task notifications, newest first: those strictly older than `before`
 * (`created_at`, then `id`, both descending), at most `limit`.
 */
export async function taskNotificationsForFeed(
  ctx: AppContext,
  userId: string,
  page: { before: { createdAt: Date; id: string } | null; limit: number; unreadOnly: boolean },
): Promise<TaskNotificationFeedRow[]> {
  const conditions: (SQL | undefined)[] = [eq(taskNotifications.userId, userId), stillVisible(userId)];
  if (page.unreadOnly) conditions.push(isNull(taskNotifications.readAt));
  if (page.before) {
    conditions.push(
      sql`(${taskNotifications.createdAt}, ${taskNotifications.id}) < (${page.before.createdAt.toISOString()}::timestamptz, ${page.before.id}::uuid)`,
    );
  }
  const rows = await ctx.db
    .select({
      id: taskNotifications.id,
      kind: taskNotifications.kind,
      createdAt: taskNotifications.createdAt,
      readAt: taskNotifications.readAt,
      taskId: tasks.id,
      title: tasks.title,
      actorId: users.id,
      actorEmail: users.email,
      actorFirst: users.firstName,
      actorLast: users.lastName,
    })
    .from(taskNotifications)
    .innerJoin(tasks, eq(tasks.id, taskNotifications.taskId))
    .leftJoin(users, eq(users.id, taskNotifications.actorId))
    .where(and(...conditions))
    .orderBy(desc(taskNotifications.createdAt), desc(taskNotifications.id))
    .limit(page.limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    createdAt: r.createdAt,
    readAt: r.readAt,
    task: { id: r.taskId, title: r.title },
    actor: r.actorId
      ? {
          id: r.actorId,
          email: r.actorEmail ?? '',
          firstName: r.actorFirst ?? '',
          lastName: r.actorLast ?? '',
        }
      : null,
  }));
}

/** How many of the user's task notifications (on tasks they still see) are unread. */
export async function unreadTaskNotificationCount(ctx: AppContext, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(taskNotifications)
    .innerJoin(tasks, eq(tasks.id, taskNotifications.taskId))
    .where(and(eq(taskNotifications.userId, userId), isNull(taskNotifications.readAt), stillVisible(userId)));
  return Number(row?.n ?? 0);
}

/**
 * Marks the user's own task notifications read: the given ids (anyone else's ids change nothing),
 * or all of them. Answers how many changed. (A write kept beside the reads above so the notification
 * centre never touches this feature's tables itself.)
 */
export async function markTaskNotificationsReadForUser(
  ctx: AppContext,
  userId: string,
  ids: readonly string[] | 'all',
): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  const rows = await ctx.db
    .update(taskNotifications)
    .set({ readAt: ctx.now() })
    .where(
      and(
        eq(taskNotifications.userId, userId),
        isNull(taskNotifications.readAt),
        ids === 'all' ? undefined : inArray(taskNotifications.id, [...ids]),
      ),
    )
    .returning({ id: taskNotifications.id });
  return rows.length;
}
