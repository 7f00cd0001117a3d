import {
  boardActivityPage,
  boardActivityQuery,
  boardArray,
  boardDetail,
  boardParams,
  board as boardSchema,
  boardWorkspaceParams,
  createBoardBody,
  updateBoardBody,
} from '@cohort/shared/boards';
import { apiError } from '@cohort/shared/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { loadWorkspaceForUser } from '../workspaces/workspaces.access.ts';
import {
  boardActivity,
  boardDetailOf,
  createBoard,
  deleteBoard,
  listBoardsForUser,
  renameBoard,
} from './boards.service.ts';
import { authorizeBoard, loadBoardForUser } from './tasks.access.ts';
import {
  presentBoard,
  presentBoardActivity,
  presentBoardMember,
  presentTaskList,
} from './tasks.presenter.ts';
import { taskRouteHelpers } from './tasks.publish.ts';
import type { TasksRealtime } from './tasks.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };
const noContent = { 204: z.null().describe('No content') };

/** Boards (issue 20): list, create, rename, delete, read one with its lists, and its activity. */
export const boardsRoutes =
  (ctx: AppContext, realtime: TasksRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['boards'];
    const { publishBoard } = taskRouteHelpers(ctx, realtime);

    app.get(
      '/api/boards',
      { schema: { tags, response: { 200: boardArray, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listBoardsForUser(ctx, user)).map(presentBoard);
      },
    );

    app.post(
      '/api/workspaces/:workspaceName/boards',
      {
        schema: {
          tags,
          params: boardWorkspaceParams,
          body: createBoardBody,
          response: { 201: boardSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const workspace = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorizeBoard(workspace.role, 'manage');
        return reply
          .status(201)
          .send(presentBoard(await createBoard(ctx, user, workspace, request.body.title)));
      },
    );

    app.get(
      '/api/boards/:boardId',
      { schema: { tags, params: boardParams, response: { 200: boardDetail, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadBoardForUser(ctx, user, request.params.boardId);
        const detail = await boardDetailOf(ctx, access);
        return {
          ...presentBoard(access),
          rev: detail.rev,
          lists: detail.lists.map(presentTaskList),
          members: detail.members.map(presentBoardMember),
        };
      },
    );

    app.patch(
      '/api/boards/:boardId',
      {
        schema: {
          tags,
          params: boardParams,
          body: updateBoardBody,
          response: { 200: boardSchema, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadBoardForUser(ctx, user, request.params.boardId);
        authorizeBoard(access.role, 'manage');
        const renamed = presentBoard(await renameBoard(ctx, access, request.body.title));
        // Each watcher sees the board under its own role: the event says only what changed.
        publishBoard(access, { board: { ...renamed, role: 'viewer' } });
        return renamed;
      },
    );

    app.delete(
      '/api/boards/:boardId',
      { schema: { tags, params: boardParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadBoardForUser(ctx, user, request.params.boardId);
        authorizeBoard(access.role, 'manage');
        await deleteBoard(ctx, access);
        realtime.boardChanged({ boardId: access.board.id, rev: access.board.rev + 1, deleted: true });
        realtime.closeBoard(access.board.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/boards/:boardId/activity',
      {
        schema: {
          tags,
          params: boardParams,
          querystring: boardActivityQuery,
          response: { 200: boardActivityPage, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadBoardForUser(ctx, user, request.params.boardId);
        const { before } = request.query;
        return (await boardActivity(ctx, access.board.id, before ? new Date(before) : undefined)).map(
          presentBoardActivity,
        );
      },
    );
  };
