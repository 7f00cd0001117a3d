import { TASK_MESSAGES, type updateTaskListBody } from '@cohort/shared/tasks';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { taskAssignees, taskLists, tasks, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { Caller } from '../workspaces/workspaces.access.ts';
import type { TaskListRow } from './tasks.access.ts';

import { byBoardOrder, listTasksOfList, renumber, type TaskView, taskViews } from './tasks.service.ts';

/** Task lists: a user's own boards, ordered by hand; each shows its tasks (tasks.service.ts). */

export interface TaskListView {
  list: TaskListRow;
  ownerEmail: string;
  tasks: TaskView[];
}

async function ownerEmailOf(ctx: AppContext, userId: string) {
  const [row] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? '';
}

export async function taskListView(ctx: AppContext, list: TaskListRow): Promise<TaskListView> {
  const [ownerEmail, listTasks] = await Promise.all([
    ownerEmailOf(ctx, list.ownerId),
    listTasksOfList(ctx, list.id),
  ]);
  return { list, ownerEmail, tasks: listTasks };
}

/** The caller's lists in board order, each with its board tasks. */
export async function listTaskListsForUser(ctx: AppContext, caller: Caller): Promise<TaskListView[]> {
  const lists = await ctx.db
    .select()
    .from(taskLists)
    .where(eq(taskLists.ownerId, caller.id))
    .orderBy(asc(taskLists.position), asc(taskLists.createdAt), asc(taskLists.id));
  if (lists.length === 0) return [];
  const ids = await ctx.db
    .select({ id: tasks.id, listId: tasks.listId })
    .from(tasks)
    .where(
      and(
        inArray(
          tasks.listId,
          lists.map((l) => l.id),
        ),
        isNull(tasks.archivedAt),
      ),
    )
    .orderBy(...byBoardOrder);
  const [ownerEmail, views] = await Promise.all([
    ownerEmailOf(ctx, caller.id),
    taskViews(
      ctx,
      ids.map((r) => r.id),
    ),
  ]);
  return lists.map((list) => ({ list, ownerEmail, tasks: views.filter((v) => v.task.listId === list.id) }));
}

// ---------------------------------------------------------------------------------------------------
// Task lists

type UpdateTaskListData = z.output<typeof updateTaskListBody>;

export async function createTaskList(ctx: AppContext, caller: Caller, title: string): Promise<TaskListRow> {
  try {
    const [row] = await ctx.db
      .insert(taskLists)
      .values({
        ownerId: caller.id,
        title,
        createdAt: ctx.now(),
        position: sql`(select coalesce(max(${taskLists.position}) + 1, 0) from ${taskLists} where ${taskLists.ownerId} = ${caller.id})`,
      })
      .returning();
    if (!row) throw new Error('task list insert returned nothing');
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TASK_MESSAGES.listNameTaken);
    throw err;
  }
}

export async function updateTaskList(ctx: AppContext, list: TaskListRow, data: UpdateTaskListData) {
  try {
    await ctx.db.transaction(async (tx) => {
      if (data.title !== undefined && data.title !== list.title) {
        await tx.update(taskLists).set({ title: data.title }).where(eq(taskLists.id, list.id));
      }
      if (data.position !== undefined) {
        // Locks the owner's lists, so that two reorders cannot interleave.
        const current = await tx
          .select({ id: taskLists.id, position: taskLists.position })
          .from(taskLists)
          .where(eq(taskLists.ownerId, list.ownerId))
          .orderBy(asc(taskLists.position), asc(taskLists.createdAt), asc(taskLists.id))
          .for('update');
        await renumber(tx, taskLists, current, list.id, data.position);
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TASK_MESSAGES.listNameTaken);
    throw err;
  }
  const [row] = await ctx.db.select().from(taskLists).where(eq(taskLists.id, list.id));
  if (!row) throw notFound(TASK_MESSAGES.listNotFound);
  return row;
}

/**
 * Deletes a list; one that still holds tasks (archived ones too) needs `force`. Returns who could
 * see each deleted task, so their tabs can be told.
 */
export async function deleteTaskList(ctx: AppContext, list: TaskListRow, force: boolean) {
  return ctx.db.transaction(async (tx) => {
    const listTasks = await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.listId, list.id));
    if (listTasks.length > 0 && !force) throw conflict(TASK_MESSAGES.listNotEmpty);
    const assignees = listTasks.length
      ? await tx
          .select()
          .from(taskAssignees)
          .where(
            inArray(
              taskAssignees.taskId,
              listTasks.map((t) => t.id),
            ),
          )
      : [];
    await tx.delete(taskLists).where(eq(taskLists.id, list.id));
    return listTasks.map((t) => ({
      taskId: t.id,
      assigneeIds: assignees.filter((a) => a.taskId === t.id).map((a) => a.userId),
    }));
  });
}
