import { apiError } from '@cohort/shared/errors';
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
import { badRequest } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { loadTaskListByNameForUser, loadTaskListForUser } from './tasks.access.ts';
import { presentTask, presentTaskDetail } from './tasks.presenter.ts';
import { taskRouteHelpers } from './tasks.publish.ts';
import {
  addChecklistItem,
  addComment,
  addLabel,
  createTask,
  getTaskDetail,
  listAssignedTasks,
  listTasksOfList,
  listTasksOfOwner,
  moveTask,
  removeChecklistItem,
  removeLabel,
  repositionTask,
  setArchived,
  setAssignees,
  setDeadline,
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
          return (await listTasksOfList(ctx, list.id)).map(presentTask);
        }
        return (await listTasksOfOwner(ctx, user, false)).map(presentTask);
      },
    );

    app.get(
      '/api/tasks/archived',
      { schema: { tags, response: { 200: taskArray, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listTasksOfOwner(ctx, user, true)).map(presentTask);
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
        const { taskListId, taskListName } = request.body;
        const list = taskListId
          ? await loadTaskListForUser(ctx, user, taskListId)
          : await loadTaskListByNameForUser(ctx, user, taskListName);
        const task = await createTask(ctx, user, list, request.body);
        return reply.status(201).send(await publishTask(task.id, { lists: [list.id] }));
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
        await updateTask(ctx, user, access, request.body);
        return publishTask(access.task.id);
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
        await moveTask(ctx, user, access, target, request.body.position);
        return publishTask(access.task.id, { lists: [access.task.listId, target.id] });
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
        return publishTask(access.task.id, { lists: [access.task.listId] });
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
        return publishTask(access.task.id);
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
        const detail = await publishTask(access.task.id, { gone: removed });
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
        const access = await taskFor(user, request.params.id, 'work');
        const notificationIds = await addComment(ctx, user, access, request.body.text);
        const detail = await publishTask(access.task.id);
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
        return reply.status(201).send(await publishTask(access.task.id));
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
        return publishTask(access.task.id);
      },
    );

    app.delete(
      '/api/tasks/:id/checklist/:itemId',
      { schema: { tags, params: checklistItemParams, response: { 200: taskDetail, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await taskFor(user, request.params.id, 'work');
        await removeChecklistItem(ctx, user, access, request.params.itemId);
        return publishTask(access.task.id);
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
        return reply.status(201).send(await publishTask(access.task.id));
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
        return publishTask(access.task.id);
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
          return publishTask(access.task.id, { lists: [access.task.listId] });
        },
      );
    }
  };
