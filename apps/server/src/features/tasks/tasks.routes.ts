import { BOARD_MESSAGES, taskAttachmentBody, taskAttachmentParams, taskPreview } from '@cohort/shared/boards';
import { apiError } from '@cohort/shared/errors';
import { FILE_MESSAGES } from '@cohort/shared/files';
import {
  assigneesBody,
  checklistItemBody,
  checklistItemParams,
  commentBody,
  createTaskBody,
  deadlineBody,
  labelBody,
  labelParams,
  listTasksQuery,
  moveTaskBody,
  TASK_MESSAGES,
  type TaskSourceMessage,
  taskArray,
  taskDetail,
  taskParams,
  taskPositionBody,
  updateChecklistItemBody,
  updateTaskBody,
} from '@cohort/shared/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { channelHasMessage } from '../chat/chat.access.ts';
import { deleteTaskFile } from '../files/files.access.ts';
import { isUuid, loadChannelForUser } from '../workspaces/workspaces.access.ts';
import {
  authorizeBoard,
  loadTaskListByNameForUser,
  loadTaskListForUser,
  personalBoardAccess,
} from './tasks.access.ts';
import { presentTask, presentTaskDetail, presentTaskPreview } from './tasks.presenter.ts';
import { taskRouteHelpers } from './tasks.publish.ts';
import {
  addChecklistItem,
  addComment,
  addLabel,
  attachToTask,
  createTask,
  getTaskDetail,
  listAssignedTasks,
  listTasksOfBoard,
  listTasksOfList,
  moveTask,
  recordAttachmentRemoved,
  removeChecklistItem,
  removeLabel,
  repositionTask,
  setArchived,
  setAssignees,
  setDeadline,
  taskViews,
  updateChecklistItem,
  updateTask,
} from './tasks.service.ts';
import type { TasksRealtime } from './tasks.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };
const _noContent = { 204: z.null().describe('No content') };

/** Task listings and one task (spec §7 "Tasks" paths). Identity fields in bodies and queries are ignored. */
export const tasksRoutes =
  (ctx: AppContext, realtime: TasksRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request gets 401 before its input is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['tasks'];
    const { publishTask, publishNotifications, taskFor } = taskRouteHelpers(ctx, realtime);

    /** "Create task from message": the caller must be able to read the message (else 404, as chat answers). */
    async function readableSource(user: { id: string }, source: TaskSourceMessage) {
      try {
        const { workspace, channel } = await loadChannelForUser(
          ctx,
          user,
          source.workspaceName,
          source.channelId,
        );
        if (await channelHasMessage(ctx, channel.id, source.messageId)) {
          return { workspaceId: workspace.id, channelId: channel.id, messageId: source.messageId };
        }
      } catch (err) {
        if (!(err instanceof HttpError && err.statusCode === 404)) throw err;
      }
      throw notFound(BOARD_MESSAGES.sourceMessageNotFound);
    }

    // -- Task listings ------------------------------------------------------------------------------

    app.get(
      '/api/tasks',
      { schema: { tags, querystring: listTasksQuery, response: { 200: taskArray, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { taskListId, taskListName } = request.query;
        if (taskListId || taskListName) {
          const list = taskListId
            ? await loadTaskListForUser(ctx, user, taskListId)
            : await loadTaskListByNameForUser(ctx, user, taskListName ?? '');
          return (await listTasksOfList(ctx, list.list.id)).map(presentTask);
        }
        const personal = await personalBoardAccess(ctx, user);
        return (await listTasksOfBoard(ctx, personal.board.id, false)).map(presentTask);
      },
    );

    app.get(
      '/api/tasks/archived',
      { schema: { tags, response: { 200: taskArray, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const personal = await personalBoardAccess(ctx, user);
        return (await listTasksOfBoard(ctx, personal.board.id, true)).map(presentTask);
      },
    );

    app.get(
      '/api/tasks/assigned',
      { schema: { tags, response: { 200: taskArray, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listAssignedTasks(ctx, user)).map(presentTask);
      },
    );

    // -- One task -----------------------------------------------------------------------------------

    app.post(
      '/api/tasks',
      { schema: { tags, body: createTaskBody, response: { 201: taskDetail, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const { taskListId, taskListName, source } = request.body;
        const list = taskListId
          ? await loadTaskListForUser(ctx, user, taskListId)
          : await loadTaskListByNameForUser(ctx, user, taskListName);
        authorizeBoard(list.board.role, 'edit');
        const task = await createTask(ctx, user, list, {
          ...request.body,
          source: source ? await readableSource(user, source) : undefined,
        });
        const access = { task, list: list.list, board: list.board, role: list.board.role, assigneeIds: [] };
        return reply.status(201).send(await publishTask(access, { lists: [list.list.id] }));
      },
    );

    app.get(
      '/api/task/:id',
      { schema: { tags, params: taskParams, response: { 200: taskDetail, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'read');
        return presentTaskDetail(await getTaskDetail(ctx, access.task.id));
      },
    );

    app.put(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          params: taskParams,
          body: updateTaskBody,
          response: { 200: taskDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        const notificationIds = await updateTask(ctx, user, access, request.body);
        const detail = await publishTask(access);
        await publishNotifications(notificationIds);
        return detail;
      },
    );

    app.put(
      '/api/tasks/:id/move',
      {
        schema: {
          tags,
          params: taskParams,
          body: moveTaskBody,
          response: { 200: taskDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'manage');
        if (request.body.newTaskListId.toLowerCase() === access.task.listId) {
          throw badRequest(TASK_MESSAGES.sameList, 'newTaskListId');
        }
        const target = await loadTaskListForUser(ctx, user, request.body.newTaskListId);
        await moveTask(ctx, user, access, target.list, request.body.position);
        return publishTask(access, { lists: [access.task.listId, target.list.id] });
      },
    );

    app.put(
      '/api/tasks/:id/position',
      {
        schema: {
          tags,
          params: taskParams,
          body: taskPositionBody,
          response: { 200: taskDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'manage');
        await repositionTask(ctx, user, access, request.body.position);
        return publishTask(access, { lists: [access.task.listId] });
      },
    );

    app.put(
      '/api/tasks/:id/deadline',
      {
        schema: {
          tags,
          params: taskParams,
          body: deadlineBody,
          response: { 200: taskDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await setDeadline(ctx, user, access, request.body.deadline);
        return publishTask(access);
      },
    );

    app.put(
      '/api/tasks/:id/assignees',
      {
        schema: {
          tags,
          params: taskParams,
          body: assigneesBody,
          response: { 200: taskDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'manage');
        const { removed, notificationIds } = await setAssignees(ctx, user, access, request.body.userIds);
        const detail = await publishTask(access, { gone: removed });
        await publishNotifications(notificationIds);
        return detail;
      },
    );

    app.post(
      '/api/tasks/:id/comments',
      {
        schema: {
          tags,
          params: taskParams,
          body: commentBody,
          response: { 201: taskDetail, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'comment');
        const notificationIds = await addComment(ctx, user, access, request.body.text);
        const detail = await publishTask(access);
        await publishNotifications(notificationIds);
        return reply.status(201).send(detail);
      },
    );

    app.post(
      '/api/tasks/:id/checklist',
      {
        schema: {
          tags,
          params: taskParams,
          body: checklistItemBody,
          response: { 201: taskDetail, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await addChecklistItem(ctx, user, access, request.body.title);
        return reply.status(201).send(await publishTask(access));
      },
    );

    app.put(
      '/api/tasks/:id/checklist/:itemId',
      {
        schema: {
          tags,
          params: checklistItemParams,
          body: updateChecklistItemBody,
          response: { 200: taskDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await updateChecklistItem(ctx, user, access, request.params.itemId, request.body);
        return publishTask(access);
      },
    );

    app.delete(
      '/api/tasks/:id/checklist/:itemId',
      { schema: { tags, params: checklistItemParams, response: { 200: taskDetail, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await removeChecklistItem(ctx, user, access, request.params.itemId);
        return publishTask(access);
      },
    );

    app.post(
      '/api/tasks/:id/labels',
      {
        schema: {
          tags,
          params: taskParams,
          body: labelBody,
          response: { 201: taskDetail, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await addLabel(ctx, user, access, request.body.label);
        return reply.status(201).send(await publishTask(access));
      },
    );

    app.delete(
      '/api/tasks/:id/labels/:label',
      { schema: { tags, params: labelParams, response: { 200: taskDetail, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        // Fastify has already decoded the URL-encoded label.
        await removeLabel(ctx, user, access, request.params.label.trim());
        return publishTask(access);
      },
    );

    for (const [path, archived] of [
      ['/api/tasks/:id/archive', true],
      ['/api/tasks/:id/restore', false],
    ] as const) {
      app.post(
        path,
        { schema: { tags, params: taskParams, response: { 200: taskDetail, ...errorResponses } } },
        async (request) => {
          const user = await requireUser(ctx, request);
          const access = await taskFor(user, request.params.id, 'manage');
          await setArchived(ctx, user, access, archived);
          return publishTask(access, { lists: [access.task.listId] });
        },
      );
    }

    // -- Attachments and previews (issue 20) ---------------------------------------------------------

    app.post(
      '/api/tasks/:id/attachments',
      {
        schema: {
          tags,
          params: taskParams,
          body: taskAttachmentBody,
          response: { 201: taskDetail, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await attachToTask(ctx, user, access, request.body.fileId.toLowerCase());
        return reply.status(201).send(await publishTask(access));
      },
    );

    app.delete(
      '/api/tasks/:id/attachments/:fileId',
      { schema: { tags, params: taskAttachmentParams, response: { 200: taskDetail, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        const fileId = request.params.fileId.toLowerCase();
        if (!isUuid(fileId)) throw notFound(FILE_MESSAGES.fileNotFound);
        await deleteTaskFile(ctx, access.task.id, fileId);
        await recordAttachmentRemoved(ctx, user, access, fileId);
        return publishTask(access);
      },
    );

    app.get(
      '/api/tasks/preview/:id',
      { schema: { tags, params: taskParams, response: { 200: taskPreview, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'read');
        const [view] = await taskViews(ctx, [access.task.id]);
        if (!view) throw notFound(TASK_MESSAGES.taskNotFound);
        return presentTaskPreview(view, access.board.board, access.list);
      },
    );
  };
