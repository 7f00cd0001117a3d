import { TASK_MESSAGES, type updateTaskListBody } from '@cohort/shared/tasks';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { anyUuidPlaceholder, uuidArrayLiteral } from '../../db/any-uuid.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { taskAssignees, taskLists, tasks, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { Caller } from '../workspaces/workspaces.access.ts';
import { type BoardAccess, bumpBoard, type ListAccess, type TaskListRow } from './tasks.access.ts';

import { byBoardOrder, listTasksOfList, renumber, type TaskView, taskViews } from './tasks.service.ts';

/** Task lists: the columns of a board, ordered by hand; each shows its tasks (tasks.service.ts). */

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

/** The reads behind a board's lists, built once (db/prepared.ts): every board opens with them. */
const boardReads = {
  lists: preparedQuery('board_lists', (db) =>
    db
      .select()
      .from(taskLists)
      .where(eq(taskLists.boardId, sql.placeholder('boardId')))
      .orderBy(asc(taskLists.position), asc(taskLists.createdAt), asc(taskLists.id)),
  ),
  /** The live tasks of the lists `ids`, in board order. */
  taskIds: preparedQuery('board_task_ids', (db) =>
    db
      .select({ id: tasks.id, listId: tasks.listId })
      .from(tasks)
      .where(and(anyUuidPlaceholder(tasks.listId, 'ids'), isNull(tasks.archivedAt)))
      .orderBy(...byBoardOrder),
  ),
  owners: preparedQuery('board_list_owners', (db) =>
    db.select({ id: users.id, email: users.email }).from(users).where(anyUuidPlaceholder(users.id, 'ids')),
  ),
};

/** A board's lists in board order, each with its board tasks. */
export async function listTaskListsOfBoard(ctx: AppContext, boardId: string): Promise<TaskListView[]> {
  const lists = await boardReads.lists(ctx.db).execute({ boardId });
  if (lists.length === 0) return [];
  const ids = await boardReads.taskIds(ctx.db).execute({ ids: uuidArrayLiteral(lists.map((l) => l.id)) });
  const ownerIds = [...new Set(lists.map((l) => l.ownerId))];
  const [owners, views] = await Promise.all([
    boardReads.owners(ctx.db).execute({ ids: uuidArrayLiteral(ownerIds) }),
    taskViews(
      ctx,
      ids.map((r) => r.id),
    ),
  ]);
  const emails = new Map(owners.map((o) => [o.id, o.email]));
  const byList = new Map<string, TaskView[]>();
  for (const v of views) byList.set(v.task.listId, [...(byList.get(v.task.listId) ?? []), v]);
  return lists.map((list) => ({
    list,
    ownerEmail: emails.get(list.ownerId) ?? '',
    tasks: byList.get(list.id) ?? [],
  }));
}

// ---------------------------------------------------------------------------------------------------
// Task lists

type UpdateTaskListData = z.output<typeof updateTaskListBody>;

export async function createTaskList(
  ctx: AppContext,
  caller: Caller,
  board: BoardAccess,
  title: string,
): Promise<ListAccess> {
  try {
    const row = await ctx.db.transaction(async (tx) => {
      await bumpBoard(tx, board);
      const [inserted] = await tx
        .insert(taskLists)
        .values({
          boardId: board.board.id,
          ownerId: caller.id,
          title,
          createdAt: ctx.now(),
          position: sql`(select coalesce(max(${taskLists.position}) + 1, 0) from ${taskLists} where ${taskLists.boardId} = ${board.board.id})`,
        })
        .returning();
      if (!inserted) throw new Error('task list insert returned nothing');
      return inserted;
    });
    return { list: row, board };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TASK_MESSAGES.listNameTaken);
    throw err;
  }
}

export async function updateTaskList(ctx: AppContext, access: ListAccess, data: UpdateTaskListData) {
  const { list } = access;
  try {
    await ctx.db.transaction(async (tx) => {
      await bumpBoard(tx, access.board);
      if (data.title !== undefined && data.title !== list.title) {
        await tx.update(taskLists).set({ title: data.title }).where(eq(taskLists.id, list.id));
      }
      if (data.position !== undefined) {
        // The board's lock (bumpBoard) keeps two reorders from interleaving.
        const current = await tx
          .select({ id: taskLists.id, position: taskLists.position })
          .from(taskLists)
          .where(eq(taskLists.boardId, list.boardId))
          .orderBy(asc(taskLists.position), asc(taskLists.createdAt), asc(taskLists.id));
        await renumber(tx, taskLists, current, list.id, data.position);
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TASK_MESSAGES.listNameTaken);
    throw err;
  }
  const [row] = await ctx.db.select().from(taskLists).where(eq(taskLists.id, list.id));
  if (!row) throw notFound(TASK_MESSAGES.listNotFound);
  return { list: row, board: access.board };
}

/**
 * Deletes a list; one that still holds tasks (archived ones too) needs `force`. Returns who could
 * see each deleted task, so their tabs can be told.
 */
export async function deleteTaskList(ctx: AppContext, access: ListAccess, force: boolean) {
  const { list } = access;
  return ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
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
