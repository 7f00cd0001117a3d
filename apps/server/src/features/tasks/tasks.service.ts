import { BOARD_MESSAGES } from '@cohort/shared/boards';
import { FILE_MESSAGES } from '@cohort/shared/files';
import { parseMentions } from '@cohort/shared/notifications';
import {
  type createTaskBody,
  TASK_ACTIVITY_SHOWN,
  TASK_CHECKLIST_MAX,
  TASK_COMMENTS_MAX,
  TASK_LABELS_MAX,
  TASK_MESSAGES,
  type TaskPriority,
  type updateChecklistItemBody,
  type updateTaskBody,
} from '@cohort/shared/tasks';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { anyUuidPlaceholder, uuidArray, uuidArrayLiteral } from '../../db/any-uuid.ts';
import { preparedQuery } from '../../db/prepared.ts';
import {
  taskActivity,
  taskAssignees,
  taskChecklistItems,
  taskComments,
  taskLabels,
  taskLists,
  tasks,
  users,
} from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { attachFileToTask, filesOfTasks, type TaskFile } from '../files/files.access.ts';
import { type Caller, coMembersAmong, isUuid, workspaceNamesByIds } from '../workspaces/workspaces.access.ts';
import { notify } from './task-notifications.service.ts';
import {
  type BoardScope,
  boardReadersAmong,
  bumpBoard,
  type Exec,
  type ListAccess,
  type PersonView,
  person,
  type TaskAccess,
  type TaskListRow,
  type TaskRow,
  type Tx,
  taskVisibleSql,
} from './tasks.access.ts';

export interface TaskView {
  task: TaskRow;
  boardId: string;
  ownerEmail: string;
  attachments: TaskFile[];
  /** The source message's workspace name now (null when the task has none or the workspace is gone). */
  sourceWorkspaceName: string | null;
  labels: string[];
  checklist: Array<typeof taskChecklistItems.$inferSelect>;
  assignees: PersonView[];
  comments: Array<{ comment: typeof taskComments.$inferSelect; user: PersonView }>;
  activity: Array<{ entry: typeof taskActivity.$inferSelect; user: PersonView | null }>;
}

// ---------------------------------------------------------------------------------------------------
// Reads (batched: a fixed number of queries whatever the number of tasks)

/**
 * The reads behind taskViews, for the tasks of the `ids` placeholder (a `uuidArrayLiteral`): every
 * board and list opens with them, so each is built once (db/prepared.ts).
 */
const taskViewReads = {
  rows: preparedQuery('task_views_tasks', (db) =>
    db
      .select({ task: tasks, boardId: taskLists.boardId, ownerEmail: users.email })
      .from(tasks)
      .innerJoin(taskLists, eq(taskLists.id, tasks.listId))
      .innerJoin(users, eq(users.id, tasks.ownerId))
      .where(anyUuidPlaceholder(tasks.id, 'ids')),
  ),
  labels: preparedQuery('task_views_labels', (db) =>
    db
      .select()
      .from(taskLabels)
      .where(anyUuidPlaceholder(taskLabels.taskId, 'ids'))
      .orderBy(asc(taskLabels.createdAt), asc(taskLabels.label)),
  ),
  checklist: preparedQuery('task_views_checklist', (db) =>
    db
      .select()
      .from(taskChecklistItems)
      .where(anyUuidPlaceholder(taskChecklistItems.taskId, 'ids'))
      .orderBy(asc(taskChecklistItems.position), asc(taskChecklistItems.id)),
  ),
  assignees: preparedQuery('task_views_assignees', (db) =>
    db
      .select({ taskId: taskAssignees.taskId, ...person })
      .from(taskAssignees)
      .innerJoin(users, eq(users.id, taskAssignees.userId))
      .where(anyUuidPlaceholder(taskAssignees.taskId, 'ids'))
      .orderBy(asc(taskAssignees.createdAt), asc(users.email)),
  ),
  comments: preparedQuery('task_views_comments', (db) =>
    db
      .select({ comment: taskComments, user: person })
      .from(taskComments)
      .innerJoin(users, eq(users.id, taskComments.userId))
      .where(anyUuidPlaceholder(taskComments.taskId, 'ids'))
      .orderBy(asc(taskComments.createdAt), asc(taskComments.id)),
  ),
  activity: preparedQuery('task_views_activity', (db) =>
    db
      .select({ entry: taskActivity, user: person })
      .from(taskActivity)
      .leftJoin(users, eq(users.id, taskActivity.userId))
      .where(anyUuidPlaceholder(taskActivity.taskId, 'ids'))
      .orderBy(desc(taskActivity.createdAt), desc(taskActivity.id))
      .limit(sql.placeholder('limit')),
  ),
};

export const byBoardOrder = [asc(tasks.position), asc(tasks.createdAt), asc(tasks.id)];

/** The live tasks of a list, in board order. */
const taskIdsOfList = preparedQuery('task_ids_of_list', (db) =>
  db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.listId, sql.placeholder('listId')), isNull(tasks.archivedAt)))
    .orderBy(...byBoardOrder),
);

/** Full views of the given tasks, in the given order; activity only when asked for. */
export async function taskViews(
  ctx: AppContext,
  taskIds: string[],
  opts: { activity?: boolean } = {},
): Promise<TaskView[]> {
  if (taskIds.length === 0) return [];
  const db = ctx.db;
  const ids = { ids: uuidArrayLiteral(taskIds) };
  const [rows, labels, checklist, assignees, comments, activity, attachments] = await Promise.all([
    taskViewReads.rows(db).execute(ids),
    taskViewReads.labels(db).execute(ids),
    taskViewReads.checklist(db).execute(ids),
    taskViewReads.assignees(db).execute(ids),
    taskViewReads.comments(db).execute(ids),
    opts.activity
      ? taskViewReads
          .activity(db)
          // Only one task's detail asks for it: its newest entries, a bounded list however busy it was.
          .execute({ ...ids, limit: TASK_ACTIVITY_SHOWN * taskIds.length })
          .then((rows) => rows.reverse())
      : Promise.resolve([]),
    filesOfTasks(ctx, taskIds),
  ]);
  const views = new Map<string, TaskView>(
    rows.map((r) => [
      r.task.id,
      {
        ...r,
        labels: [],
        checklist: [],
        assignees: [],
        comments: [],
        activity: [],
        attachments: [],
        sourceWorkspaceName: null,
      } as TaskView,
    ]),
  );
  const sourceIds = rows.flatMap((r) => (r.task.sourceWorkspaceId ? [r.task.sourceWorkspaceId] : []));
  if (sourceIds.length) {
    const names = await workspaceNamesByIds(ctx, sourceIds);
    for (const v of views.values()) {
      v.sourceWorkspaceName = v.task.sourceWorkspaceId ? (names.get(v.task.sourceWorkspaceId) ?? null) : null;
    }
  }
  for (const l of labels) views.get(l.taskId)?.labels.push(l.label);
  for (const c of checklist) views.get(c.taskId)?.checklist.push(c);
  for (const { taskId, ...a } of assignees) views.get(taskId)?.assignees.push(a);
  for (const c of comments) views.get(c.comment.taskId)?.comments.push(c);
  for (const a of activity) views.get(a.entry.taskId)?.activity.push(a);
  for (const f of attachments) views.get(f.taskId)?.attachments.push(f);
  return taskIds.flatMap((id) => views.get(id) ?? []);
}

export async function getTaskDetail(ctx: AppContext, taskId: string): Promise<TaskView> {
  const [view] = await taskViews(ctx, [taskId], { activity: true });
  if (!view) throw notFound(TASK_MESSAGES.taskNotFound);
  return view;
}

/** The board's tasks of one list (archived ones left out), in board order. */
export async function listTasksOfList(ctx: AppContext, listId: string) {
  const rows = await taskIdsOfList(ctx.db).execute({ listId });
  return taskViews(
    ctx,
    rows.map((r) => r.id),
  );
}

/** Every task on the lists of one board (archived ones left out, or only them). */
export async function listTasksOfBoard(ctx: AppContext, boardId: string, archived: boolean) {
  const ids = await ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .innerJoin(taskLists, eq(taskLists.id, tasks.listId))
    .where(
      and(eq(taskLists.boardId, boardId), archived ? isNotNull(tasks.archivedAt) : isNull(tasks.archivedAt)),
    )
    .orderBy(asc(taskLists.position), asc(taskLists.createdAt), ...byBoardOrder);
  return taskViews(
    ctx,
    ids.map((r) => r.id),
  );
}

/** Tasks assigned to the caller on every board they can see ("Assigned to me"), archived ones left out. */
export async function listAssignedTasks(ctx: AppContext, caller: Caller) {
  const ids = await ctx.db
    .select({ id: tasks.id })
    .from(tasks)
    .innerJoin(taskAssignees, and(eq(taskAssignees.taskId, tasks.id), eq(taskAssignees.userId, caller.id)))
    .where(and(isNull(tasks.archivedAt), taskVisibleSql(sql`${tasks.id}`, sql`${caller.id}::uuid`)))
    .orderBy(asc(tasks.deadline), asc(tasks.createdAt), asc(tasks.id));
  return taskViews(
    ctx,
    ids.map((r) => r.id),
  );
}

// ---------------------------------------------------------------------------------------------------
// Ordering

/**
 * Renumbers `current` 0..n-1 (dense) with `id` placed at `index` (clamped; the end when undefined),
 * or just closes the gaps when `id` is null; writes only rows whose position changes, in ONE
 * statement (a card moved to the top of a 100-card list shifts the 99 others: one UPDATE per row
 * was a hundred round trips inside the board's lock — bench/board-moves.ts). Returns the ids in
 * their new order, which is the list's committed order while the caller holds the board's lock.
 */
export async function renumber(
  tx: Tx,
  table: typeof tasks | typeof taskLists,
  current: Array<{ id: string; position: number }>,
  id: string | null,
  index: number | undefined,
): Promise<string[]> {
  const ids = current.map((r) => r.id).filter((x) => x !== id);
  if (id !== null) ids.splice(Math.min(index ?? ids.length, ids.length), 0, id);
  const before = new Map(current.map((r) => [r.id, r.position]));
  const changed = ids.flatMap((rowId, position) =>
    before.get(rowId) === position ? [] : [{ rowId, position }],
  );
  if (changed.length === 0) return ids;
  if (changed.length === 1) {
    const [only] = changed as [{ rowId: string; position: number }];
    await tx.update(table).set({ position: only.position }).where(eq(table.id, only.rowId));
    return ids;
  }
  const positions = `{${changed.map((c) => c.position).join(',')}}`;
  await tx.execute(
    sql`update ${table} set position = v.position
        from unnest(${uuidArray(changed.map((c) => c.rowId))}, ${positions}::int[]) as v(id, position)
        where ${table.id} = v.id`,
  );
  return ids;
}

// ---------------------------------------------------------------------------------------------------
// Tasks: every change and its activity row commit together.

async function record(
  ctx: AppContext,
  tx: Tx,
  caller: Caller,
  taskId: string,
  action: string,
  detail: Record<string, unknown> = {},
) {
  const now = ctx.now();
  await tx.update(tasks).set({ updatedAt: now }).where(eq(tasks.id, taskId));
  await tx.insert(taskActivity).values({ taskId, userId: caller.id, action, detail, createdAt: now });
}

/** The task's fields, with its source message already checked (and resolved to the workspace's id). */
type CreateTaskData = Omit<z.output<typeof createTaskBody>, 'source'> & {
  source?: { workspaceId: string; channelId: string; messageId: string } | undefined;
};
type UpdateTaskData = z.output<typeof updateTaskBody>;
type UpdateChecklistItemData = z.output<typeof updateChecklistItemBody>;

export async function createTask(ctx: AppContext, caller: Caller, access: ListAccess, data: CreateTaskData) {
  const { list } = access;
  return ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    const [last] = await tx
      .select({ position: max(tasks.position) })
      .from(tasks)
      .where(eq(tasks.listId, list.id));
    const now = ctx.now();
    const [row] = await tx
      .insert(tasks)
      .values({
        listId: list.id,
        ownerId: caller.id,
        title: data.title,
        description: data.description,
        priority: data.priority,
        position: (last?.position ?? -1) + 1,
        createdAt: now,
        updatedAt: now,
        ...(data.source
          ? {
              sourceWorkspaceId: data.source.workspaceId,
              sourceChannelId: data.source.channelId,
              sourceMessageId: data.source.messageId,
            }
          : {}),
      })
      .returning();
    if (!row) throw new Error('task insert returned nothing');
    await record(ctx, tx, caller, row.id, 'created', { title: row.title, taskListId: list.id });
    return row;
  });
}

export async function updateTask(ctx: AppContext, caller: Caller, access: TaskAccess, data: UpdateTaskData) {
  const changes: { title?: string; description?: string; priority?: TaskPriority } = {};
  if (data.title !== undefined && data.title !== access.task.title) changes.title = data.title;
  if (data.description !== undefined && data.description !== access.task.description) {
    changes.description = data.description;
  }
  if (data.priority !== undefined && data.priority !== access.task.priority) changes.priority = data.priority;
  if (Object.keys(changes).length === 0) return [];
  // Only people newly mentioned by this save are told (an edit elsewhere does not repeat it).
  const mentioned =
    changes.description === undefined
      ? []
      : await newlyMentioned(ctx, access, changes.description, access.task.description);
  return ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await tx.update(tasks).set(changes).where(eq(tasks.id, access.task.id));
    await record(ctx, tx, caller, access.task.id, 'updated', { fields: Object.keys(changes) });
    return notify(ctx, tx, mentioned, access.task.id, 'mention', caller);
  });
}

/**
 * Who `text` mentions (`@[Name](email)`, as chat writes them) that `before` did not, among the people
 * who may read the task's board; never anyone outside it.
 */
export async function newlyMentioned(
  ctx: AppContext,
  access: TaskAccess,
  text: string,
  before = '',
): Promise<string[]> {
  const already = new Set(parseMentions(before).emails);
  const emails = parseMentions(text).emails.filter((e) => !already.has(e));
  if (emails.length === 0) return [];
  const people = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, emails));
  return boardReadersAmong(
    ctx,
    access.board.board,
    people.map((p) => p.id),
    access.assigneeIds,
  );
}

export async function moveTask(
  ctx: AppContext,
  caller: Caller,
  access: TaskAccess,
  target: TaskListRow,
  position: number | undefined,
) {
  if (target.id === access.task.listId) throw badRequest(TASK_MESSAGES.sameList, 'newTaskListId');
  if (target.boardId !== access.board.board.id) throw badRequest(BOARD_MESSAGES.otherBoard, 'newTaskListId');
  await ctx.db.transaction(async (tx) => {
    // The board's lock first: a concurrent move of this card has committed by now, so the list it
    // is in is read again (the one loaded before may be stale) and both moves apply one after the other.
    await bumpBoard(tx, access.board);
    const [now] = await tx.select({ listId: tasks.listId }).from(tasks).where(eq(tasks.id, access.task.id));
    if (!now) throw notFound(TASK_MESSAGES.taskNotFound);
    const from = now.listId;
    const current = await boardOf(tx, target.id);
    await tx.update(tasks).set({ listId: target.id, position: -1 }).where(eq(tasks.id, access.task.id));
    const targetOrder = await renumber(
      tx,
      tasks,
      [...current.filter((r) => r.id !== access.task.id), { id: access.task.id, position: -1 }],
      access.task.id,
      position,
    );
    // The list it left closes the gap.
    const known = new Map([[target.id, targetOrder]]);
    if (from !== target.id)
      known.set(from, await renumber(tx, tasks, await boardOf(tx, from), null, undefined));
    await record(ctx, tx, caller, access.task.id, 'moved', {
      from,
      to: target.id,
      position: targetOrder.indexOf(access.task.id),
    });
    await recordOrder(tx, access.board, [...new Set([from, access.task.listId, target.id])], known);
  });
}

/**
 * The committed card order of the lists a move touched, for the board's watchers: the orders this
 * transaction just wrote (`known`, under the board's lock), the others read again.
 */
async function recordOrder(
  tx: Tx,
  scope: BoardScope,
  listIds: string[],
  known: Map<string, string[]> = new Map(),
) {
  const order = [];
  for (const listId of listIds) {
    const taskIds = known.get(listId) ?? (await boardOf(tx, listId)).map((r) => r.id);
    order.push({ taskListId: listId, taskIds });
  }
  if (scope.change) scope.change.order = order;
}

/** A list's board tasks (archived ones are off the board) in board order. */
function boardOf(tx: Tx, listId: string) {
  return tx
    .select({ id: tasks.id, position: tasks.position })
    .from(tasks)
    .where(and(eq(tasks.listId, listId), isNull(tasks.archivedAt)))
    .orderBy(...byBoardOrder);
}

/**
 * Moves a board task to `position` (clamped) within its own list; the others shift so the list
 * stays numbered 0..n-1. An archived task is not on the board (400).
 */
export async function repositionTask(ctx: AppContext, caller: Caller, access: TaskAccess, position: number) {
  if (access.task.archivedAt !== null) throw badRequest(TASK_MESSAGES.archivedNotOnBoard, 'position');
  await ctx.db.transaction(async (tx) => {
    // The board's lock serialises this with moves; the card's list is read again under it.
    await bumpBoard(tx, access.board);
    const [now] = await tx.select({ listId: tasks.listId }).from(tasks).where(eq(tasks.id, access.task.id));
    const listId = now?.listId ?? access.task.listId;
    const current = await boardOf(tx, listId);
    const from = current.findIndex((r) => r.id === access.task.id);
    const order = await renumber(tx, tasks, current, access.task.id, position);
    const to = Math.min(position, current.length - 1);
    if (from !== to) await record(ctx, tx, caller, access.task.id, 'reordered', { from, to });
    await recordOrder(tx, access.board, [listId], new Map([[listId, order]]));
  });
}

export async function setDeadline(
  ctx: AppContext,
  caller: Caller,
  access: TaskAccess,
  deadline: string | null,
) {
  const value = deadline === null ? null : new Date(deadline);
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await tx.update(tasks).set({ deadline: value }).where(eq(tasks.id, access.task.id));
    await record(ctx, tx, caller, access.task.id, 'deadline', { deadline: value?.toISOString() ?? null });
  });
}

/**
 * Refuses (409) one more comment, checklist item or label on a task that has `max` already. The
 * task row is locked first, so parallel additions are counted one after another.
 */
async function assertRoomOnTask(
  tx: Exec,
  taskId: string,
  what: {
    table: typeof taskComments | typeof taskChecklistItems | typeof taskLabels;
    max: number;
    message: string;
  },
) {
  await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId)).for('update');
  const [row] = await tx.select({ n: count() }).from(what.table).where(eq(what.table.taskId, taskId));
  if ((row?.n ?? 0) >= what.max) throw conflict(what.message);
}

/** Returns the ids of the notifications it created (for the owner and assignees but the commenter). */
export async function addComment(ctx: AppContext, caller: Caller, access: TaskAccess, text: string) {
  const mentioned = await newlyMentioned(ctx, access, text);
  // The task's creator and assignees hear of the comment, each only while they can read the board;
  // whoever is mentioned gets the mention instead.
  const followers = (
    await boardReadersAmong(
      ctx,
      access.board.board,
      [access.task.ownerId, ...access.assigneeIds],
      access.assigneeIds,
    )
  ).filter((id) => !mentioned.includes(id));
  return ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await assertRoomOnTask(tx, access.task.id, {
      table: taskComments,
      max: TASK_COMMENTS_MAX,
      message: TASK_MESSAGES.tooManyComments,
    });
    const [row] = await tx
      .insert(taskComments)
      .values({ taskId: access.task.id, userId: caller.id, text, createdAt: ctx.now() })
      .returning({ id: taskComments.id });
    await record(ctx, tx, caller, access.task.id, 'commented', { commentId: row?.id });
    return [
      ...(await notify(ctx, tx, followers, access.task.id, 'comment', caller)),
      ...(await notify(ctx, tx, mentioned, access.task.id, 'mention', caller)),
    ];
  });
}

export async function addChecklistItem(ctx: AppContext, caller: Caller, access: TaskAccess, title: string) {
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await assertRoomOnTask(tx, access.task.id, {
      table: taskChecklistItems,
      max: TASK_CHECKLIST_MAX,
      message: TASK_MESSAGES.tooManyChecklistItems,
    });
    const [last] = await tx
      .select({ position: max(taskChecklistItems.position) })
      .from(taskChecklistItems)
      .where(eq(taskChecklistItems.taskId, access.task.id));
    const [row] = await tx
      .insert(taskChecklistItems)
      .values({ taskId: access.task.id, title, position: (last?.position ?? -1) + 1 })
      .returning({ id: taskChecklistItems.id });
    await record(ctx, tx, caller, access.task.id, 'checklist.added', { itemId: row?.id, title });
  });
}

async function checklistItemOf(tx: Exec, taskId: string, itemId: string) {
  if (!isUuid(itemId)) throw notFound(TASK_MESSAGES.checklistItemNotFound);
  const [item] = await tx
    .select()
    .from(taskChecklistItems)
    .where(and(eq(taskChecklistItems.taskId, taskId), eq(taskChecklistItems.id, itemId)));
  if (!item) throw notFound(TASK_MESSAGES.checklistItemNotFound);
  return item;
}

export async function updateChecklistItem(
  ctx: AppContext,
  caller: Caller,
  access: TaskAccess,
  itemId: string,
  data: UpdateChecklistItemData,
) {
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    const item = await checklistItemOf(tx, access.task.id, itemId);
    const changes: { done?: boolean; title?: string } = {};
    if (data.status !== undefined) changes.done = data.status;
    if (data.title !== undefined) changes.title = data.title;
    await tx.update(taskChecklistItems).set(changes).where(eq(taskChecklistItems.id, item.id));
    await record(ctx, tx, caller, access.task.id, 'checklist.updated', {
      itemId: item.id,
      title: changes.title ?? item.title,
      ...(data.status === undefined ? {} : { status: data.status }),
    });
  });
}

export async function removeChecklistItem(
  ctx: AppContext,
  caller: Caller,
  access: TaskAccess,
  itemId: string,
) {
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    const item = await checklistItemOf(tx, access.task.id, itemId);
    await tx.delete(taskChecklistItems).where(eq(taskChecklistItems.id, item.id));
    await record(ctx, tx, caller, access.task.id, 'checklist.removed', {
      itemId: item.id,
      title: item.title,
    });
  });
}

/** Labels are unique per task (exact text after trimming): adding one twice is a 409. */
export async function addLabel(ctx: AppContext, caller: Caller, access: TaskAccess, label: string) {
  try {
    await ctx.db.transaction(async (tx) => {
      await bumpBoard(tx, access.board);
      await assertRoomOnTask(tx, access.task.id, {
        table: taskLabels,
        max: TASK_LABELS_MAX,
        message: TASK_MESSAGES.tooManyLabels,
      });
      await tx.insert(taskLabels).values({ taskId: access.task.id, label, createdAt: ctx.now() });
      await record(ctx, tx, caller, access.task.id, 'label.added', { label });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TASK_MESSAGES.labelExists);
    throw err;
  }
}

export async function removeLabel(ctx: AppContext, caller: Caller, access: TaskAccess, label: string) {
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    const removed = await tx
      .delete(taskLabels)
      .where(and(eq(taskLabels.taskId, access.task.id), eq(taskLabels.label, label)))
      .returning({ label: taskLabels.label });
    if (removed.length === 0) throw notFound(TASK_MESSAGES.labelNotFound);
    await record(ctx, tx, caller, access.task.id, 'label.removed', { label });
  });
}

/** Archiving hides the task from the board and keeps everything; both directions are idempotent. */
export async function setArchived(ctx: AppContext, caller: Caller, access: TaskAccess, archived: boolean) {
  if ((access.task.archivedAt !== null) === archived) return;
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await tx
      .update(tasks)
      .set({ archivedAt: archived ? ctx.now() : null })
      .where(eq(tasks.id, access.task.id));
    await record(ctx, tx, caller, access.task.id, archived ? 'archived' : 'restored');
  });
}

/**
 * Replaces the assignees. Each must share a workspace with the task's owner (else 400, nothing
 * changed). Returns who lost access, so their tabs can be told.
 */
export async function setAssignees(ctx: AppContext, caller: Caller, access: TaskAccess, userIds: string[]) {
  const wanted = [...new Set(userIds.map((id) => id.toLowerCase()))];
  const board = access.board.board;
  if (board.ownerId) {
    // A personal board: colleagues of its owner (sharing a workspace), as before boards.
    const allowed = await coMembersAmong(ctx, board.ownerId, wanted.filter(isUuid));
    if (wanted.some((id) => !allowed.has(id)))
      throw badRequest(TASK_MESSAGES.assigneeNotColleague, 'userIds');
  } else {
    const members = await boardReadersAmong(ctx, board, wanted.filter(isUuid));
    if (wanted.some((id) => !members.includes(id)))
      throw badRequest(BOARD_MESSAGES.assigneeNotMember, 'userIds');
  }
  const added = wanted.filter((id) => !access.assigneeIds.includes(id));
  const removed = access.assigneeIds.filter((id) => !wanted.includes(id));
  if (added.length === 0 && removed.length === 0) return { removed, notificationIds: [] };
  return ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    if (removed.length) {
      await tx
        .delete(taskAssignees)
        .where(and(eq(taskAssignees.taskId, access.task.id), inArray(taskAssignees.userId, removed)));
    }
    const now = ctx.now();
    if (added.length) {
      await tx
        .insert(taskAssignees)
        .values(added.map((userId) => ({ taskId: access.task.id, userId, createdAt: now })));
    }
    await record(ctx, tx, caller, access.task.id, 'assigned', { added, removed });
    const notificationIds = await notify(ctx, tx, added, access.task.id, 'assigned', caller);
    return { removed, notificationIds };
  });
}

// ---------------------------------------------------------------------------------------------------
// Attachments (the file service stores, authorizes and sweeps the files; this records the change)

/** Puts the caller's upload for this board on the task (404 when it is not such an upload). */
export async function attachToTask(ctx: AppContext, caller: Caller, access: TaskAccess, fileId: string) {
  if (!isUuid(fileId)) throw notFound(FILE_MESSAGES.attachmentNotFound);
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await attachFileToTask(tx, {
      fileId,
      taskId: access.task.id,
      boardId: access.board.board.id,
      userId: caller.id,
      now: ctx.now(),
    });
    await record(ctx, tx, caller, access.task.id, 'attachment.added', { fileId });
  });
}

/** After the file service deleted a card's file: the change is recorded on the task and its board. */
export async function recordAttachmentRemoved(
  ctx: AppContext,
  caller: Caller,
  access: TaskAccess,
  fileId: string,
) {
  await ctx.db.transaction(async (tx) => {
    await bumpBoard(tx, access.board);
    await record(ctx, tx, caller, access.task.id, 'attachment.removed', { fileId });
  });
}
