import { apiError } from '@cohort/shared/errors';
import {
  listTaskNotificationsQuery,
  readAllTaskNotificationsResponse,
  taskNotification,
  taskNotificationArray,
  taskNotificationParams,
} from '@cohort/shared/tasks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import {
  createDueNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from './task-notifications.service.ts';
import { loadTaskNotificationForUser } from './tasks.access.ts';
import { presentTaskNotification } from './tasks.presenter.ts';
import { taskRouteHelpers } from './tasks.publish.ts';
import type { TasksRealtime } from './tasks.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };
const _noContent = { 204: z.null().describe('No content') };

/** The caller's task notifications (anyone else's is a 404). */
export const taskNotificationsRoutes =
  (ctx: AppContext, realtime: TasksRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request gets 401 before its input is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['tasks'];
    const { publishNotifications } = taskRouteHelpers(ctx, realtime);

    // -- Notifications (the caller's own; anyone else's is a 404) ----------------------------------

    app.get(
      '/api/tasks/notifications',
      {
        schema: {
          tags,
          querystring: listTaskNotificationsQuery,
          response: { 200: taskNotificationArray, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        await publishNotifications(await createDueNotifications(ctx, user));
        const views = await listNotifications(ctx, user, { unreadOnly: request.query.unread === 'true' });
        return views.map(presentTaskNotification);
      },
    );

    app.post(
      '/api/tasks/notifications/read-all',
      { schema: { tags, response: { 200: readAllTaskNotificationsResponse, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return { updated: await markAllNotificationsRead(ctx, user) };
      },
    );

    app.post(
      '/api/tasks/notifications/:id/read',
      {
        schema: {
          tags,
          params: taskNotificationParams,
          response: { 200: taskNotification, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const notification = await loadTaskNotificationForUser(ctx, user, request.params.id);
        return presentTaskNotification(await markNotificationRead(ctx, notification));
      },
    );
  };
