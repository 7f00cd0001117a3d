import { TASK_DUE_SOON_MS, TASK_MESSAGES, type TaskNotificationKind } from '@cohort/shared/tasks';
import { and, desc, eq, exists, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { taskAssignees, taskNotifications, tasks, users } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { Caller } from '../workspaces/workspaces.access.ts';
import {
  type PersonView,
  person,
  type TaskNotificationRow,
  type Tx,
  taskVisibleSql,
} from './tasks.access.ts';

// ---------------------------------------------------------------------------------------------------
// Notifications: created in the transaction of the change they tell about; pushed after the commit.

export interface TaskNotificationView {
  notification: TaskNotificationRow;
  task: { id: string; title: string; listId: string };
  actor: PersonView | null;
}

/** Notifies `userIds` (never the actor, each once) about `taskId`; returns the new notifications' ids. */
export async function notify(
  ctx: AppContext,
  tx: Tx,
  userIds: string[],
  taskId: string,
  kind: TaskNotificationKind,
  actor: Caller,
): Promise<string[]> {
  const recipients = [...new Set(userIds)].filter((id) => id !== actor.id);
  if (recipients.length === 0) return [];
  const now = ctx.now();
  const rows = await tx
    .insert(taskNotifications)
    .values(recipients.map((userId) => ({ userId, taskId, kind, actorId: actor.id, createdAt: now })))
    .returning({ id: taskNotifications.id });
  return rows.map((r) => r.id);
}

/** The caller can still see the notification's task (through its board). */
const visibleTo = (callerId: string) => taskVisibleSql(sql`${tasks.id}`, sql`${callerId}::uuid`);

/** The caller created the task or is assigned to it (whom a deadline concerns), and still sees it. */
const concerns = (callerId: string) =>
  and(
    or(
      eq(tasks.ownerId, callerId),
      exists(
        sql`(select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id} and ${taskAssignees.userId} = ${callerId})`,
      ),
    ),
    visibleTo(callerId),
  );

/**
 * Creates the missing 'due' notifications of the caller: their visible (owned or assigned), board
 * tasks whose deadline falls within the next 24 hours. Each exists once per user and task (a unique
 * index), however often this runs. Returns the new ones' ids.
 */
export async function createDueNotifications(ctx: AppContext, caller: Caller): Promise<string[]> {
  const now = ctx.now();
  const due = await ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .where(
      and(
        concerns(caller.id),
        isNull(tasks.archivedAt),
        gte(tasks.deadline, now),
        lte(tasks.deadline, new Date(now.getTime() + TASK_DUE_SOON_MS)),
      ),
    );
  if (due.length === 0) return [];
  const rows = await ctx.db
    .insert(taskNotifications)
    .values(due.map((t) => ({ userId: caller.id, taskId: t.id, kind: 'due' as const, createdAt: now })))
    .onConflictDoNothing()
    .returning({ id: taskNotifications.id });
  return rows.map((r) => r.id);
}

function notificationQuery(ctx: AppContext) {
  return ctx.db
    .select({
      notification: taskNotifications,
      task: { id: tasks.id, title: tasks.title, listId: tasks.listId },
      actor: person,
    })
    .from(taskNotifications)
    .innerJoin(tasks, eq(tasks.id, taskNotifications.taskId))
    .leftJoin(users, eq(users.id, taskNotifications.actorId));
}

/** The caller's notifications on tasks they can still see, newest first. */
export async function listNotifications(
  ctx: AppContext,
  caller: Caller,
  opts: { unreadOnly?: boolean } = {},
): Promise<TaskNotificationView[]> {
  return notificationQuery(ctx)
    .where(
      and(
        eq(taskNotifications.userId, caller.id),
        visibleTo(caller.id),
        opts.unreadOnly ? isNull(taskNotifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(taskNotifications.createdAt), desc(taskNotifications.id));
}

/** Views of the given notifications (whoever they belong to), for pushing them to their recipients. */
export async function notificationViews(ctx: AppContext, ids: string[]): Promise<TaskNotificationView[]> {
  if (ids.length === 0) return [];
  return notificationQuery(ctx).where(inArray(taskNotifications.id, ids));
}

/** Marks one (already loaded for its recipient) notification read; idempotent. */
export async function markNotificationRead(
  ctx: AppContext,
  notification: TaskNotificationRow,
): Promise<TaskNotificationView> {
  if (notification.readAt === null) {
    await ctx.db
      .update(taskNotifications)
      .set({ readAt: ctx.now() })
      .where(and(eq(taskNotifications.id, notification.id), isNull(taskNotifications.readAt)));
  }
  const [view] = await notificationViews(ctx, [notification.id]);
  if (!view) throw notFound(TASK_MESSAGES.notificationNotFound);
  return view;
}

/** Marks all the caller's unread notifications read; returns how many changed. */
export async function markAllNotificationsRead(ctx: AppContext, caller: Caller): Promise<number> {
  const rows = await ctx.db
    .update(taskNotifications)
    .set({ readAt: ctx.now() })
    .where(and(eq(taskNotifications.userId, caller.id), isNull(taskNotifications.readAt)))
    .returning({ id: taskNotifications.id });
  return rows.length;
}
