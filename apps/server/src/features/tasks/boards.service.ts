import { BOARD_ACTIVITY_PAGE, BOARD_MESSAGES, WORKSPACE_BOARDS_MAX } from '@cohort/shared/boards';
import { and, asc, count, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { taskActivity, taskBoards, taskLists, tasks, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { conflict } from '../../http/errors.ts';
import {
  type Caller,
  listMemberships,
  listWorkspaceMembersWithRoles,
  type WorkspaceAccess,
} from '../workspaces/workspaces.access.ts';
import { listTaskListsOfBoard } from './task-lists.service.ts';
import { type BoardAccess, type BoardRow, bumpBoard, ensurePersonalBoard, person } from './tasks.access.ts';

/** Boards (issue 20): a workspace's team boards and each user's personal board. */

export const DEFAULT_BOARD_TITLE = 'Team board';

/** A new workspace's first board, written in the workspace's own transaction (bus: workspaceCreated). */
export async function createDefaultBoard(db: Db, workspaceId: string, createdBy: string, now: Date) {
  await db.insert(taskBoards).values({ workspaceId, title: DEFAULT_BOARD_TITLE, createdBy, createdAt: now });
}

/** The caller's boards: the personal one first (created if missing), then by workspace name and title. */
export async function listBoardsForUser(ctx: AppContext, caller: Caller): Promise<BoardAccess[]> {
  const personal = await ensurePersonalBoard(ctx, caller.id);
  const memberships = await listMemberships(ctx, caller.id);
  const result: BoardAccess[] = [{ board: personal, workspace: null, role: 'owner' }];
  if (memberships.length === 0) return result;
  const byWorkspace = new Map(memberships.map((m) => [m.id, m]));
  const boards = await ctx.db
    .select()
    .from(taskBoards)
    .where(
      and(
        isNotNull(taskBoards.workspaceId),
        sql`${taskBoards.workspaceId} in (${sql.join(
          memberships.map((m) => sql`${m.id}::uuid`),
          sql`, `,
        )})`,
      ),
    )
    .orderBy(asc(sql`lower(${taskBoards.title})`), asc(taskBoards.id));
  // Memberships come ordered by workspace name; boards keep their title order within each.
  for (const m of memberships) {
    for (const board of boards) {
      if (board.workspaceId !== m.id) continue;
      const ws = byWorkspace.get(m.id);
      if (ws) result.push({ board, workspace: { id: ws.id, name: ws.name }, role: ws.role });
    }
  }
  return result;
}

export async function createBoard(
  ctx: AppContext,
  caller: Caller,
  workspace: WorkspaceAccess,
  title: string,
): Promise<BoardAccess> {
  try {
    const board = await ctx.db.transaction(async (tx) => {
      // One creation at a time per workspace, so the cap holds under parallel requests.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`boards:${workspace.workspace.id}`}))`);
      const [row] = await tx
        .select({ n: count() })
        .from(taskBoards)
        .where(eq(taskBoards.workspaceId, workspace.workspace.id));
      if ((row?.n ?? 0) >= WORKSPACE_BOARDS_MAX) throw conflict(BOARD_MESSAGES.tooManyBoards);
      const [inserted] = await tx
        .insert(taskBoards)
        .values({ workspaceId: workspace.workspace.id, title, createdBy: caller.id, createdAt: ctx.now() })
        .returning();
      if (!inserted) throw new Error('board insert returned nothing');
      return inserted;
    });
    return {
      board,
      workspace: { id: workspace.workspace.id, name: workspace.workspace.name },
      role: workspace.role,
    };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(BOARD_MESSAGES.titleTaken);
    throw err;
  }
}

export async function renameBoard(ctx: AppContext, access: BoardAccess, title: string): Promise<BoardAccess> {
  try {
    await ctx.db.transaction(async (tx) => {
      await bumpBoard(tx, access);
      await tx.update(taskBoards).set({ title }).where(eq(taskBoards.id, access.board.id));
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(BOARD_MESSAGES.titleTaken);
    throw err;
  }
  access.board.title = title;
  return access;
}

/** Deletes a team board with its lists, tasks and card files (cascades; the files' bytes are queued). */
export async function deleteBoard(ctx: AppContext, access: BoardAccess): Promise<void> {
  if (access.board.ownerId) throw conflict(BOARD_MESSAGES.personalBoardKept);
  await ctx.db.delete(taskBoards).where(eq(taskBoards.id, access.board.id));
}

/** Who can be put on the board's cards: the workspace's members, or the owner of a personal board. */
export async function boardMembers(ctx: AppContext, board: BoardRow) {
  if (board.workspaceId) return listWorkspaceMembersWithRoles(ctx, board.workspaceId);
  if (!board.ownerId) return [];
  const [owner] = await ctx.db.select(person).from(users).where(eq(users.id, board.ownerId));
  return owner ? [{ ...owner, role: 'owner' as const }] : [];
}

/** The board with its lists (each with its board tasks) and members; rev read first, so a change after it shows as a newer rev. */
export async function boardDetailOf(ctx: AppContext, access: BoardAccess) {
  const [fresh] = await ctx.db
    .select({ rev: taskBoards.rev, title: taskBoards.title })
    .from(taskBoards)
    .where(eq(taskBoards.id, access.board.id));
  const [lists, members] = await Promise.all([
    listTaskListsOfBoard(ctx, access.board.id),
    boardMembers(ctx, access.board),
  ]);
  return { rev: fresh?.rev ?? access.board.rev, lists, members };
}

/** A page of the board's activity, newest first, strictly older than `before`. */
export async function boardActivity(ctx: AppContext, boardId: string, before: Date | undefined) {
  return ctx.db
    .select({ entry: taskActivity, user: person, task: { id: tasks.id, title: tasks.title } })
    .from(taskActivity)
    .innerJoin(tasks, eq(tasks.id, taskActivity.taskId))
    .innerJoin(taskLists, eq(taskLists.id, tasks.listId))
    .leftJoin(users, eq(users.id, taskActivity.userId))
    .where(and(eq(taskLists.boardId, boardId), before ? lt(taskActivity.createdAt, before) : undefined))
    .orderBy(desc(taskActivity.createdAt), desc(taskActivity.id))
    .limit(BOARD_ACTIVITY_PAGE);
}
