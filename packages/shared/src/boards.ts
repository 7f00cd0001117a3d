import { z } from 'zod';
import { task, taskList } from './tasks.ts';
import { text } from './text.ts';

/**
 * Boards (issue 20): every task list belongs to a board. A workspace has any number of team boards,
 * worked on by its members according to their workspace role; each user also has one personal board
 * for private to-dos (created on first use; every list that existed before boards moved onto it).
 */

export const BOARD_TITLE_MAX_LENGTH = 100;
/** Boards one workspace may hold: a member must not be able to make the board switcher unbounded. */
export const WORKSPACE_BOARDS_MAX = 50;
/** A board's recent-activity feed shows this many entries at most per page. */
export const BOARD_ACTIVITY_PAGE = 50;

/** A caller's role on a board: `owner` of their personal board, else their workspace role. */
export const BOARD_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];

/**
 * What each role may do on a board (docs/permissions.md "Boards"). Viewers read and comment, editors
 * change cards and lists, admins (and the owner of a personal board) also manage the board itself.
 */
export const BOARD_PERMISSIONS = {
  read: ['owner', 'admin', 'editor', 'viewer'],
  /** Comments (with @mentions). */
  comment: ['owner', 'admin', 'editor', 'viewer'],
  /** Cards and lists: create, edit, move, reorder, assign, checklist, labels, dates, attachments, archive/restore. */
  edit: ['owner', 'admin', 'editor'],
  /** Rename and delete the board; create boards in the workspace (admins). */
  manage: ['owner', 'admin'],
} as const satisfies Record<string, readonly BoardRole[]>;
export type BoardAction = keyof typeof BOARD_PERMISSIONS;

export function boardRoleCan(role: BoardRole, action: BoardAction): boolean {
  return (BOARD_PERMISSIONS[action] as readonly BoardRole[]).includes(role);
}

export const BOARD_MESSAGES = {
  boardNotFound: 'Board not found',
  titleRequired: 'Board name cannot be empty',
  titleTaken: 'This workspace already has a board with this name',
  tooManyBoards: `A workspace can hold ${WORKSPACE_BOARDS_MAX} boards at most`,
  personalBoardKept: 'Your personal board cannot be deleted',
  otherBoard: 'A task moves only between lists of its own board',
  assigneeNotMember: 'Cards can only be assigned to members of the workspace',
  sourceMessageNotFound: 'Message not found',
} as const;

const boardTitle = text()
  .trim()
  .min(1, BOARD_MESSAGES.titleRequired)
  .max(BOARD_TITLE_MAX_LENGTH, `Board name is too long (${BOARD_TITLE_MAX_LENGTH} characters at most)`);

// ---------------------------------------------------------------------------------------------------
// Requests

/** `POST /api/workspaces/{workspaceName}/boards` (workspace admins). */
export const createBoardBody = z.object({ title: boardTitle });
export type CreateBoardBody = z.input<typeof createBoardBody>;
/** `PATCH /api/boards/{boardId}` (admins; the owner of a personal board). */
export const updateBoardBody = z.object({ title: boardTitle });
export type UpdateBoardBody = z.input<typeof updateBoardBody>;
export const boardParams = z.object({ boardId: z.string().min(1).max(200) });
export const boardWorkspaceParams = z.object({ workspaceName: z.string().min(1).max(200) });
/** `GET /api/boards/{boardId}/activity?before=<ISO time>`: newest first, a page at a time. */
export const boardActivityQuery = z.object({ before: z.iso.datetime({ offset: true }).optional() });

/** `POST /api/tasks/{id}/attachments`: a file uploaded with `POST /api/files` (field `taskId`). */
export const taskAttachmentBody = z.object({ fileId: z.uuid('fileId must be a file id') });
export const taskAttachmentParams = z.object({
  id: z.string().min(1).max(200),
  fileId: z.string().min(1).max(200),
});

// ---------------------------------------------------------------------------------------------------
// Responses

export const board = z.object({
  _id: z.string(),
  title: z.string(),
  /** null for the caller's personal board. */
  workspace: z.object({ _id: z.string(), name: z.string() }).nullable(),
  role: z.enum(BOARD_ROLES),
  createdAt: z.string(),
});
export type Board = z.infer<typeof board>;
export const boardArray = z.array(board);

/** Who can be chosen as a card's member (the workspace's members; the owner on a personal board). */
export const boardMember = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(BOARD_ROLES),
});
export type BoardMember = z.infer<typeof boardMember>;

/** `GET /api/boards/{boardId}`: the board, its lists (board order) with their tasks, and its members. */
export const boardDetail = board.extend({
  /** The board's change counter when this was read (see BOARD_EVENTS.changed). */
  rev: z.number().int(),
  lists: z.array(taskList),
  members: z.array(boardMember),
});
export type BoardDetail = z.infer<typeof boardDetail>;

export const boardActivityItem = z.object({
  _id: z.string(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
  user: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }).nullable(),
  task: z.object({ _id: z.string(), title: z.string() }),
  time: z.string(),
});
export type BoardActivityItem = z.infer<typeof boardActivityItem>;
export const boardActivityPage = z.array(boardActivityItem);

/** `GET /api/tasks/preview/{id}`: what a pasted task link shows to someone who can see the task. */
export const taskPreview = task
  .pick({ _id: true, title: true, priority: true, labels: true, dates: true })
  .extend({
    board: z.object({ _id: z.string(), title: z.string() }),
    listTitle: z.string(),
    archived: z.boolean(),
  });
export type TaskPreview = z.infer<typeof taskPreview>;

// ---------------------------------------------------------------------------------------------------
// Real time: namespace `/tasks`; a socket joins a board's room with `watchBoard` (ack {ok} or
// {error}) after the same access check as GET /api/boards/{id}, and leaves it with `unwatchBoard`.

export const BOARD_EVENTS = {
  watch: 'watchBoard',
  unwatch: 'unwatchBoard',
  /** Every committed change of a watched board, in `rev` order. */
  changed: 'boardChanged',
} as const;
export const watchBoardPayload = z.object({ boardId: z.uuid() });

/**
 * One committed change of a board, to every socket watching it. `rev` goes up by one per change: a
 * client that sees a gap (or reconnects) refetches GET /api/boards/{id} (which carries `rev`) instead
 * of reloading the page. Whatever changed is carried, so 20 watchers do not refetch a 500-card board.
 */
export const boardChangedEvent = z.object({
  boardId: z.string(),
  rev: z.number().int(),
  /** A card's new front (null with `taskId`: it left this board or was deleted). */
  taskId: z.string().optional(),
  task: task.nullable().optional(),
  /** A list's new name/position (null with `taskListId`: deleted). */
  taskListId: z.string().optional(),
  list: z.object({ _id: z.string(), title: z.string(), position: z.number() }).nullable().optional(),
  /** After a move or reorder: the full card order of every list it touched, as the database has it. */
  order: z.array(z.object({ taskListId: z.string(), taskIds: z.array(z.string()) })).optional(),
  /** The board was renamed (its new state) or deleted (`deleted: true`). */
  board: board.optional(),
  deleted: z.boolean().optional(),
});
export type BoardChangedEvent = z.infer<typeof boardChangedEvent>;
