import { apiError } from '@cohort/shared/errors';
import {
  createTaskListBody,
  deleteTaskListQuery,
  listTaskListsQuery,
  taskList,
  taskListArray,
  taskListParams,
  updateTaskListBody,
} from '@cohort/shared/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import {
  createTaskList,
  deleteTaskList,
  listTaskListsOfBoard,
  taskListView,
  updateTaskList,
} from './task-lists.service.ts';
import {
  authorizeBoard,
  loadBoardForUser,
  loadTaskListForUser,
  personalBoardAccess,
} from './tasks.access.ts';
import { presentTaskList } from './tasks.presenter.ts';
import { taskRouteHelpers } from './tasks.publish.ts';
import type { TasksRealtime } from './tasks.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };
const noContent = { 204: z.null().describe('No content') };

/** Task lists of a board (the personal board by default; spec §7 "Tasks" paths). Identity fields in bodies and queries are ignored. */
export const taskListsRoutes =
  (ctx: AppContext, realtime: TasksRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request gets 401 before its input is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['tasks'];
    const { publishBoard, publishList } = taskRouteHelpers(ctx, realtime);

    // -- Task lists ---------------------------------------------------------------------------------

    app.get(
      '/api/tasklists',
      {
        schema: {
          tags,
          querystring: listTaskListsQuery,
          response: { 200: taskListArray, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { boardId } = request.query;
        const board = boardId
          ? await loadBoardForUser(ctx, user, boardId)
          : await personalBoardAccess(ctx, user);
        return (await listTaskListsOfBoard(ctx, board.board.id)).map(presentTaskList);
      },
    );

    app.post(
      '/api/tasklists',
      { schema: { tags, body: createTaskListBody, response: { 201: taskList, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const { boardId, title } = request.body;
        const board = boardId
          ? await loadBoardForUser(ctx, user, boardId)
          : await personalBoardAccess(ctx, user);
        authorizeBoard(board.role, 'edit');
        const list = await createTaskList(ctx, user, board, title);
        return reply.status(201).send(await publishList(list));
      },
    );

    app.get(
      '/api/tasklist/:taskListId',
      { schema: { tags, params: taskListParams, response: { 200: taskList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { list } = await loadTaskListForUser(ctx, user, request.params.taskListId);
        return presentTaskList(await taskListView(ctx, list));
      },
    );

    app.patch(
      '/api/tasklists/:taskListId',
      {
        schema: {
          tags,
          params: taskListParams,
          body: updateTaskListBody,
          response: { 200: taskList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadTaskListForUser(ctx, user, request.params.taskListId);
        authorizeBoard(access.board.role, 'edit');
        return publishList(await updateTaskList(ctx, access, request.body));
      },
    );

    app.delete(
      '/api/tasklists/:taskListId',
      {
        schema: {
          tags,
          params: taskListParams,
          querystring: deleteTaskListQuery,
          response: { ...noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadTaskListForUser(ctx, user, request.params.taskListId);
        authorizeBoard(access.board.role, 'edit');
        const { list } = access;
        const deleted = await deleteTaskList(ctx, access, request.query.force === 'true');
        for (const t of deleted) {
          realtime.taskChanged([list.ownerId, ...t.assigneeIds], {
            taskId: t.taskId,
            taskListId: list.id,
            task: null,
          });
        }
        realtime.taskListChanged(list.ownerId, { taskListId: list.id, list: null });
        publishBoard(access.board, { taskListId: list.id, list: null });
        return reply.status(204).send(null);
      },
    );
  };
