import { BOARD_MESSAGES, type BoardAction, type BoardRole, boardRoleCan } from '@cohort/shared/boards';
import { TASK_MESSAGES, type TaskNotificationKind } from '@cohort/shared/tasks';
import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { taskAssignees, taskBoards, taskLists, taskNotifications, tasks, users } from '../../db/schema.ts';
import { forbidden, HttpError, notFound } from '../../http/errors.ts';
import {
  type Caller,
  isUuid,
  isWorkspaceMemberSql,
  loadWorkspaceForUser,
} from '../workspaces/workspaces.access.ts';
import type { TaskRole } from './tasks.policy.ts';

/**
 * The one funnel through which a board, a task list or a task is reached on behalf of a user: always
 * through its board. A board the caller may not read (and its lists and tasks) is answered exactly
 * like one that does not exist (404).
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
export const boardNotFound = () => notFound(BOARD_MESSAGES.boardNotFound);

// ---------------------------------------------------------------------------------------------------
// Boards (issue 20): every list is on a board, and every access to a list or task goes through it.

export type BoardRow = typeof taskBoards.$inferSelect;

/** What a committed change did to its board: its new rev and, after a move, the order of the lists it touched. */
export interface BoardChange {
  rev: number;
  order?: Array<{ taskListId: string; taskIds: string[] }>;
}

/** A board as reached by one caller; `change` is set by the write that changed it (for the publish step). */
export interface BoardScope {
  board: BoardRow;
  /** null for a personal board. */
  workspace: { id: string; name: string } | null;
  change?: BoardChange;
}
export interface BoardAccess extends BoardScope {
  role: BoardRole;
}
export interface ListAccess {
  list: TaskListRow;
  board: BoardAccess;
}
export interface TaskAccess {
  task: TaskRow;
  list: TaskListRow;
  board: BoardScope;
  role: TaskRole;
  assigneeIds: string[];
}

/** The caller's role on `board` (owner of a personal board, else their workspace role), or null. */
async function boardAccessOf(ctx: AppContext, caller: Caller, board: BoardRow): Promise<BoardAccess | null> {
  if (board.ownerId) return board.ownerId === caller.id ? { board, workspace: null, role: 'owner' } : null;
  if (!board.workspaceId) return null;
  try {
    const { workspace, role } = await loadWorkspaceForUser(ctx, caller, board.workspaceId);
    return { board, workspace: { id: workspace.id, name: workspace.name }, role };
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) return null;
    throw err;
  }
}

/** The board `boardId` with the caller's role, or 404 (non-members, someone else's personal board, bad ids). */
export async function loadBoardForUser(
  ctx: AppContext,
  caller: Caller,
  boardId: string,
): Promise<BoardAccess> {
  if (!isUuid(boardId)) throw boardNotFound();
  const [board] = await ctx.db.select().from(taskBoards).where(eq(taskBoards.id, boardId));
  const access = board ? await boardAccessOf(ctx, caller, board) : null;
  if (!access) throw boardNotFound();
  return access;
}

/** The authorize step for boards: a member without the role gets 403. */
export function authorizeBoard(role: BoardRole, action: BoardAction): void {
  if (!boardRoleCan(role, action)) throw forbidden();
}

const personalBoardOf = preparedQuery('personal_board_of', (db) =>
  db
    .select()
    .from(taskBoards)
    .where(eq(taskBoards.ownerId, sql.placeholder('userId'))),
);

/** The user's personal board, created on first use (one per user: a unique index settles races). */
export async function ensurePersonalBoard(ctx: AppContext, userId: string): Promise<BoardRow> {
  const [existing] = await personalBoardOf(ctx.db).execute({ userId });
  if (existing) return existing;
  await ctx.db
    .insert(taskBoards)
    .values({ ownerId: userId, title: PERSONAL_BOARD_TITLE, createdBy: userId, createdAt: ctx.now() })
    .onConflictDoNothing();
  const [row] = await ctx.db.select().from(taskBoards).where(eq(taskBoards.ownerId, userId));
  if (!row) throw new Error('personal board missing after insert');
  return row;
}

export const PERSONAL_BOARD_TITLE = 'Personal board';

/** The caller's personal board as an access (they own it). */
export async function personalBoardAccess(ctx: AppContext, caller: Caller): Promise<BoardAccess> {
  return { board: await ensurePersonalBoard(ctx, caller.id), workspace: null, role: 'owner' };
}

/**
 * Bumps the board's rev; the FIRST statement of every transaction that changes a board, so the row
 * lock it takes serialises the changes of one board (two moves of one card end in one order) and
 * every committed change has its own rev. Records the new rev on the scope for the publish step.
 */
export async function bumpBoard(tx: Tx, scope: BoardScope): Promise<number> {
  const [row] = await tx
    .update(taskBoards)
    .set({ rev: sql`${taskBoards.rev} + 1` })
    .where(eq(taskBoards.id, scope.board.id))
    .returning({ rev: taskBoards.rev });
  if (!row) throw boardNotFound();
  scope.change = { rev: row.rev };
  scope.board.rev = row.rev;
  return row.rev;
}

const taskListWithBoard = preparedQuery('task_list_with_board', (db) =>
  db
    .select({ list: taskLists, board: taskBoards })
    .from(taskLists)
    .innerJoin(taskBoards, eq(taskBoards.id, taskLists.boardId))
    .where(eq(taskLists.id, sql.placeholder('taskListId'))),
);

/** The list `taskListId` on a board the caller can see, with their role there, or 404. */
export async function loadTaskListForUser(
  ctx: AppContext,
  caller: Caller,
  taskListId: string,
): Promise<ListAccess> {
  if (!isUuid(taskListId)) throw taskListNotFound();
  const [row] = await taskListWithBoard(ctx.db).execute({ taskListId });
  const board = row ? await boardAccessOf(ctx, caller, row.board) : null;
  if (!row || !board) throw taskListNotFound();
  return { list: row.list, board };
}

/** The list named `name` (any case) on the caller's personal board, or 404. */
export async function loadTaskListByNameForUser(
  ctx: AppContext,
  caller: Caller,
  name: string,
): Promise<ListAccess> {
  // Read without creating the personal board: a refused request changes nothing.
  const [row] = await ctx.db
    .select({ list: taskLists, board: taskBoards })
    .from(taskLists)
    .innerJoin(taskBoards, eq(taskBoards.id, taskLists.boardId))
    .where(and(eq(taskBoards.ownerId, caller.id), sql`lower(${taskLists.title}) = lower(${name.trim()})`));
  if (!row) throw taskListNotFound();
  return { list: row.list, board: { board: row.board, workspace: null, role: 'owner' } };
}

/**
 * The task `taskId` with its list, board and the caller's role on it, or 404. The role is the board
 * role; on a personal board an assignee also gets in (role 'assignee': read and work, not manage).
 */
export async function loadTaskForUser(ctx: AppContext, caller: Caller, taskId: string): Promise<TaskAccess> {
  if (!isUuid(taskId)) throw taskNotFound();
  const [row] = await ctx.db
    .select({ task: tasks, list: taskLists, board: taskBoards })
    .from(tasks)
    .innerJoin(taskLists, eq(taskLists.id, tasks.listId))
    .innerJoin(taskBoards, eq(taskBoards.id, taskLists.boardId))
    .where(eq(tasks.id, taskId));
  if (!row) throw taskNotFound();
  const assigneeIds = (
    await ctx.db
      .select({ userId: taskAssignees.userId })
      .from(taskAssignees)
      .where(eq(taskAssignees.taskId, taskId))
  ).map((a) => a.userId);
  const access = await boardAccessOf(ctx, caller, row.board);
  if (access) return { task: row.task, list: row.list, board: access, role: access.role, assigneeIds };
  if (row.board.ownerId && assigneeIds.includes(caller.id)) {
    return {
      task: row.task,
      list: row.list,
      board: { board: row.board, workspace: null },
      role: 'assignee',
      assigneeIds,
    };
  }
  throw taskNotFound();
}

/**
 * The user can see the task `taskId` (SQL): its board is their personal board or a board of a
 * workspace they belong to, or — on a personal board — they are assigned to it.
 */
export const taskVisibleSql = (taskId: SQL, userId: SQL) => sql`exists (select 1 from ${tasks} vis_t
  join ${taskLists} vis_l on vis_l.id = vis_t.list_id join ${taskBoards} vis_b on vis_b.id = vis_l.board_id
  where vis_t.id = ${taskId} and (vis_b.owner_id = ${userId}
    or (vis_b.workspace_id is not null and ${isWorkspaceMemberSql(sql`vis_b.workspace_id`, userId)})
    or (vis_b.owner_id is not null and exists (select 1 from ${taskAssignees} vis_a
      where vis_a.task_id = vis_t.id and vis_a.user_id = ${userId}))))`;

/**
 * Of `userIds`, those who may read the board: its owner (and, for one task, its assignees) on a
 * personal board; the workspace's members on a team board.
 */
export async function boardReadersAmong(
  ctx: AppContext,
  board: BoardRow,
  userIds: string[],
  assigneeIds: readonly string[] = [],
): Promise<string[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  if (board.ownerId) return ids.filter((id) => id === board.ownerId || assigneeIds.includes(id));
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(inArray(users.id, ids), isWorkspaceMemberSql(sql`${board.workspaceId}::uuid`, sql`${users.id}`)),
    );
  return rows.map((r) => r.id);
}

/**
 * The caller's own notification `id` on a task they can still see, or 404 — someone else's
 * notification is answered exactly like one that does not exist.
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
    .where(
      and(
        eq(taskNotifications.id, id),
        eq(taskNotifications.userId, caller.id),
        taskVisibleSql(sql`${taskNotifications.taskId}`, sql`${caller.id}::uuid`),
      ),
    );
  if (!row) throw notFound(TASK_MESSAGES.notificationNotFound);
  return row;
}

// -- For the notification centre (features/notifications merges these with message notifications) ---

export interface TaskNotificationFeedRow {
  id: string;
  kind: TaskNotificationKind;
  createdAt: Date;
  readAt: Date | null;
  task: { id: string; title: string };
  actor: { id: string; email: string; firstName: string; lastName: string } | null;
}

/** Only notifications on tasks the user still sees. */
const stillVisible = (userId: string) => taskVisibleSql(sql`${tasks.id}`, sql`${userId}::uuid`);

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
