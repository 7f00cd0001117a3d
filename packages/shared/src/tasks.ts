import { z } from 'zod';
import { text } from './text.ts';

/** Taskboard: task lists, tasks and their card parts (spec §3 Task and Task list, §7 Tasks). */

export const TASK_PRIORITIES = ['Low', 'Medium', 'High'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export const DEFAULT_TASK_PRIORITY: TaskPriority = 'Medium';

export const TASK_TITLE_MAX_LENGTH = 200;
export const TASK_DESCRIPTION_MAX_LENGTH = 10_000;
export const TASK_COMMENT_MAX_LENGTH = 2_000;
export const TASK_LABEL_MAX_LENGTH = 50;
export const TASK_ASSIGNEES_MAX = 50;

/** The messages the server sends and the client shows (spec §5 and §8 where the spec names them). */
/** What one task may carry: others (assignees) can add to it, so every list on it is bounded. */
export const TASK_COMMENTS_MAX = 500;
export const TASK_CHECKLIST_MAX = 100;
export const TASK_LABELS_MAX = 20;
/** A task's detail shows its newest activity entries, this many at most. */
export const TASK_ACTIVITY_SHOWN = 200;

export const TASK_MESSAGES = {
  tooManyComments: `A task can hold ${TASK_COMMENTS_MAX} comments at most`,
  tooManyChecklistItems: `A checklist can hold ${TASK_CHECKLIST_MAX} items at most`,
  tooManyLabels: `A task can carry ${TASK_LABELS_MAX} labels at most`,
  listNameEmpty: 'List name cannot be empty.',
  listNameTaken: 'You already have a list with this name',
  listNotEmpty: 'This list still has tasks: delete it with force=true to delete them too',
  listNotFound: 'Task list not found',
  taskNotFound: 'Task not found',
  notificationNotFound: 'Notification not found',
  archivedNotOnBoard: 'An archived task is not on the board: restore it first',
  checklistItemNotFound: 'Checklist item not found',
  labelNotFound: 'Label not found',
  labelExists: 'This label is already on the task',
  titleRequired: 'Title is required',
  listRequired: 'Choose a task list (Tasklist or taskListId)',
  sameList: 'The task is already in this list',
  commentEmpty: 'Comment cannot be empty',
  checklistItemEmpty: 'Checklist item cannot be empty',
  labelEmpty: 'Label cannot be empty',
  invalidPriority: 'Priority must be Low, Medium or High',
  invalidDeadline: 'Deadline must be an ISO date (YYYY-MM-DD or a date-time) or null',
  nothingToChange: 'Nothing to change',
  assigneeNotColleague: 'Tasks can only be assigned to people who share a workspace with the task owner',
} as const;

const tooLong = (label: string, max: number) => `${label} is too long (${max} characters at most)`;

const titleField = text()
  .trim()
  .min(1, TASK_MESSAGES.titleRequired)
  .max(TASK_TITLE_MAX_LENGTH, tooLong('Title', TASK_TITLE_MAX_LENGTH));
const descriptionField = text().max(
  TASK_DESCRIPTION_MAX_LENGTH,
  tooLong('Description', TASK_DESCRIPTION_MAX_LENGTH),
);
const priorityField = z.enum(TASK_PRIORITIES, { error: TASK_MESSAGES.invalidPriority });
/** Identity fields the spec's client sends; the session decides who acts, so they are dropped. */
const ignoredIdentity = z.unknown().optional();

/** A list name: blank (or missing) is the spec's sentence, as one object-level (custom) issue. */
const listTitleField = text().trim().max(TASK_TITLE_MAX_LENGTH, tooLong('List name', TASK_TITLE_MAX_LENGTH));

// ---------------------------------------------------------------------------------------------------
// Requests

export const createTaskListBody = z
  .object({
    title: listTitleField.optional(),
    /** The spec's client may send `name` instead of `title`. */
    name: listTitleField.optional(),
    createdBy: ignoredIdentity,
    cards: ignoredIdentity,
    /** The board the list goes on; the caller's personal board when absent. */
    boardId: z.string().trim().max(200).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.title && !v.name)
      ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.listNameEmpty, path: ['title'] });
  })
  .transform((v) => ({ title: v.title || v.name || '', boardId: v.boardId || undefined }));
export type CreateTaskListBody = z.input<typeof createTaskListBody>;

export const updateTaskListBody = z
  .object({
    title: listTitleField.optional(),
    position: z.number().int().min(0).max(100_000).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.title === '') {
      ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.listNameEmpty, path: ['title'] });
    } else if (v.title === undefined && v.position === undefined) {
      ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.nothingToChange });
    }
  });
export type UpdateTaskListBody = z.input<typeof updateTaskListBody>;

export const deleteTaskListQuery = z.object({ force: z.enum(['true', 'false']).optional() });

/** The chat message a task was created from (a link back to it). */
export const taskSourceMessage = z.object({
  workspaceName: z.string().min(1).max(200),
  channelId: z.uuid(),
  messageId: z.uuid(),
});
export type TaskSourceMessage = z.infer<typeof taskSourceMessage>;

/** `Tasklist` is the spec's list name; `taskListId` picks the list by id (it wins when both are sent). */
export const createTaskBody = z
  .object({
    title: text().trim().max(TASK_TITLE_MAX_LENGTH, tooLong('Title', TASK_TITLE_MAX_LENGTH)).optional(),
    description: descriptionField.default(''),
    priority: priorityField.default(DEFAULT_TASK_PRIORITY),
    Tasklist: z.string().trim().max(TASK_TITLE_MAX_LENGTH).optional(),
    taskListId: z.string().trim().max(200).optional(),
    createdBy: ignoredIdentity,
    /** "Create task from message": the message the task links back to. */
    source: taskSourceMessage.optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.title) ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.titleRequired, path: ['title'] });
    else if (!v.Tasklist && !v.taskListId) {
      ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.listRequired, path: ['Tasklist'] });
    }
  })
  .transform((v) => ({
    title: v.title ?? '',
    description: v.description,
    priority: v.priority,
    taskListId: v.taskListId || undefined,
    taskListName: v.Tasklist ?? '',
    source: v.source,
  }));
export type CreateTaskBody = z.input<typeof createTaskBody>;

/** The spec sends `{description}`; title and priority may be changed the same way. */
export const updateTaskBody = z
  .object({
    description: descriptionField.optional(),
    title: titleField.optional(),
    priority: priorityField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.description === undefined && v.title === undefined && v.priority === undefined) {
      ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.nothingToChange });
    }
  });
export type UpdateTaskBody = z.input<typeof updateTaskBody>;

export const moveTaskBody = z.object({
  newTaskListId: z.string().trim().min(1, 'newTaskListId is required').max(200),
  /** 0-based index among the target list's tasks; the end when omitted. */
  position: z.number().int().min(0).max(100_000).optional(),
});
export type MoveTaskBody = z.input<typeof moveTaskBody>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const deadlineBody = z.object({
  deadline: z.union(
    [
      z.null(),
      z
        .string({ error: TASK_MESSAGES.invalidDeadline })
        .trim()
        .refine(
          (s) =>
            (ISO_DATE.test(s) || z.iso.datetime({ offset: true }).safeParse(s).success) &&
            !Number.isNaN(Date.parse(s)) &&
            // Four-digit years from 0001: PostgreSQL has no year 0.
            !s.startsWith('0000'),
          TASK_MESSAGES.invalidDeadline,
        ),
    ],
    { error: TASK_MESSAGES.invalidDeadline },
  ),
});
export type DeadlineBody = z.input<typeof deadlineBody>;

const nonBlank = (message: string, max: number, label: string) =>
  text({ error: message }).trim().min(1, message).max(max, tooLong(label, max));

export const commentBody = z.object({
  text: nonBlank(TASK_MESSAGES.commentEmpty, TASK_COMMENT_MAX_LENGTH, 'Comment'),
  user: ignoredIdentity,
});
export type CommentBody = z.input<typeof commentBody>;

export const checklistItemBody = z.object({
  title: nonBlank(TASK_MESSAGES.checklistItemEmpty, TASK_TITLE_MAX_LENGTH, 'Checklist item'),
  user: ignoredIdentity,
});
export type ChecklistItemBody = z.input<typeof checklistItemBody>;

export const updateChecklistItemBody = z
  .object({
    status: z.boolean().optional(),
    title: nonBlank(TASK_MESSAGES.checklistItemEmpty, TASK_TITLE_MAX_LENGTH, 'Checklist item').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.status === undefined && v.title === undefined) {
      ctx.addIssue({ code: 'custom', message: TASK_MESSAGES.nothingToChange });
    }
  });
export type UpdateChecklistItemBody = z.input<typeof updateChecklistItemBody>;

export const labelBody = z.object({
  label: nonBlank(TASK_MESSAGES.labelEmpty, TASK_LABEL_MAX_LENGTH, 'Label'),
});
export type LabelBody = z.input<typeof labelBody>;

export const assigneesBody = z.object({
  userIds: z
    .array(z.uuid('Assignees are user ids'))
    .max(TASK_ASSIGNEES_MAX, `At most ${TASK_ASSIGNEES_MAX} assignees`),
});
export type AssigneesBody = z.input<typeof assigneesBody>;

/** `userEmail` from the spec's client never selects anything. */
export const listTasksQuery = z.object({
  taskListName: z.string().max(TASK_TITLE_MAX_LENGTH).optional(),
  taskListId: z.string().max(200).optional(),
  userEmail: z.string().max(320).optional(),
});
/** Without `boardId`: the lists of the caller's personal board (the spec's Boards section). */
export const listTaskListsQuery = z.object({
  userEmail: z.string().max(320).optional(),
  boardId: z.string().max(200).optional(),
});

export const taskListParams = z.object({ taskListId: z.string().min(1).max(200) });
export const taskParams = z.object({ id: z.string().min(1).max(200) });
export const checklistItemParams = taskParams.extend({ itemId: z.string().min(1).max(200) });
export const labelParams = taskParams.extend({ label: z.string().min(1).max(200) });

// ---------------------------------------------------------------------------------------------------
// Responses

const person = z.object({ firstName: z.string(), lastName: z.string(), email: z.string() });

/** A file on a card; `url` and `thumbnailUrl` are the file service's (same authorization). */
export const taskAttachment = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number(),
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type TaskAttachment = z.infer<typeof taskAttachment>;

export const task = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  priority: z.enum(TASK_PRIORITIES),
  /** The owner's e-mail. */
  createdBy: z.string(),
  taskListId: z.string(),
  boardId: z.string(),
  labels: z.array(z.string()),
  checklist: z.array(z.object({ _id: z.string(), title: z.string(), status: z.boolean() })),
  assignedTo: z.array(person.extend({ _id: z.string() })),
  dates: z.object({ deadline: z.string().nullable() }),
  comments: z.array(z.object({ _id: z.string(), text: z.string(), time: z.string(), user: person })),
  /** Files and images on the card (the file service serves and authorizes them). */
  attachments: z.array(taskAttachment),
  /** The chat message this task was created from, if any. */
  source: taskSourceMessage.nullable(),
  archived: z.boolean(),
  position: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Task = z.infer<typeof task>;
export const taskArray = z.array(task);

export const taskActivityItem = z.object({
  _id: z.string(),
  /** created, updated, moved, deadline, commented, checklist.added, checklist.updated, … */
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
  /** null once that account is gone. */
  user: person.nullable(),
  time: z.string(),
});
export type TaskActivityItem = z.infer<typeof taskActivityItem>;

/** One task as GET /api/task/{id} and every task change answer it: with its activity, oldest first. */
export const taskDetail = task.extend({ activity: z.array(taskActivityItem) });
export type TaskDetail = z.infer<typeof taskDetail>;

/** `name` and `title` both carry the list's name (the spec's client reads either). */
export const taskList = z.object({
  _id: z.string(),
  name: z.string(),
  title: z.string(),
  createdBy: z.string(),
  boardId: z.string(),
  position: z.number(),
  cards: z.array(z.never()),
  tasks: z.array(task),
});
export type TaskList = z.infer<typeof taskList>;
export const taskListArray = z.array(taskList);

// ---------------------------------------------------------------------------------------------------
// Real time: namespace `/tasks`; every socket sits in its user's room.

export const TASKS_NAMESPACE = '/tasks';
export const TASK_EVENTS = {
  taskChanged: 'taskChanged',
  taskListChanged: 'taskListChanged',
  /** A new notification, to its recipient's tabs only. */
  notification: 'notification',
} as const;

/** To the owner and assignees after a task change; `task` is null for whoever can no longer see it. */
export const taskChangedEvent = z.object({
  taskId: z.string(),
  taskListId: z.string(),
  task: taskDetail.nullable(),
});
export type TaskChangedEvent = z.infer<typeof taskChangedEvent>;

/** To the list's owner after a list change (its tasks included); `list` is null once deleted. */
export const taskListChangedEvent = z.object({ taskListId: z.string(), list: taskList.nullable() });
export type TaskListChangedEvent = z.infer<typeof taskListChangedEvent>;

// ---------------------------------------------------------------------------------------------------
// Reordering and notifications

/** `PUT /api/tasks/{id}/position`: the task's new 0-based index among its list's board tasks. */
export const taskPositionBody = z.object({
  position: z.number({ error: 'position must be a whole number from 0' }).int().min(0).max(100_000),
});
export type TaskPositionBody = z.input<typeof taskPositionBody>;

export const TASK_NOTIFICATION_KINDS = ['assigned', 'comment', 'due', 'mention'] as const;
export type TaskNotificationKind = (typeof TASK_NOTIFICATION_KINDS)[number];
/** How far ahead a deadline makes a 'due' notification. */
export const TASK_DUE_SOON_MS = 24 * 60 * 60 * 1000;

export const listTaskNotificationsQuery = z.object({ unread: z.enum(['true', 'false']).optional() });
export const taskNotificationParams = z.object({ id: z.string().min(1).max(200) });

/** Task assigned to you, comment on your (or your assigned) task, task due within 24 hours, or an @mention in a card's description or comment. */
export const taskNotification = z.object({
  _id: z.string(),
  kind: z.enum(TASK_NOTIFICATION_KINDS),
  task: z.object({ _id: z.string(), title: z.string(), taskListId: z.string() }),
  /** Who assigned or commented; null for 'due' and once that account is gone. */
  actor: person.nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type TaskNotification = z.infer<typeof taskNotification>;
export const taskNotificationArray = z.array(taskNotification);
export const readAllTaskNotificationsResponse = z.object({ updated: z.number().int() });
export type ReadAllTaskNotificationsResponse = z.infer<typeof readAllTaskNotificationsResponse>;

/** `TASK_EVENTS.notification`: pushed to the recipient's tabs once created (same shape as above). */
export const taskNotificationEvent = taskNotification;
export type TaskNotificationEvent = TaskNotification;
