import { apiError } from '@cohort/shared/errors';
import {
  listNotificationsQuery,
  mentionCounts,
  notificationPage,
  readNotificationsBody,
  readNotificationsResponse,
} from '@cohort/shared/notifications';
import { workspaceParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { loadWorkspaceForUser } from '../workspaces/workspaces.access.ts';
import { authorize } from '../workspaces/workspaces.policy.ts';
import { subscribeMissedCallNotifications } from './notifications.calls.ts';
import { subscribeInvitationNotifications } from './notifications.invitations.ts';
import { presentFeedItem, presentMessageNotification } from './notifications.presenter.ts';
import {
  createMessageNotifications,
  listNotifications,
  markNotificationsRead,
  mentionCountsOf,
} from './notifications.service.ts';
import type { NotificationsRealtime } from './notifications.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError };

/**
 * The notification centre: the caller's own notifications only (message and task ones in one feed),
 * read marks, and unread mention counts per channel. Also subscribes to committed messages to create
 * and push notifications.
 */
export const notificationsRoutes =
  (ctx: AppContext, realtime: NotificationsRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    const unsubscribeInvitations = subscribeInvitationNotifications(ctx, (userId, notification) =>
      realtime.push(userId, notification),
    );
    const unsubscribeCalls = subscribeMissedCallNotifications(ctx, (userId, notification) =>
      realtime.push(userId, notification),
    );
    const unsubscribe = ctx.bus.on('messageCreated', async (event) => {
      for (const { userId, view } of await createMessageNotifications(ctx, event)) {
        realtime.push(userId, presentMessageNotification(view));
      }
    });
    const unsubscribeDirectRead = ctx.bus.on('directRead', async ({ userId, conversationId, seq }) => {
      await markNotificationsRead(ctx, userId, { directConversationId: conversationId, upToSeq: seq });
    });
    app.addHook('onClose', async () => {
      unsubscribe();
      unsubscribeDirectRead();
      unsubscribeInvitations();
      unsubscribeCalls();
    });

    // Authentication first: an anonymous request is a 401 before anything is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['notifications'];

    app.get(
      '/api/notifications',
      {
        schema: {
          tags,
          querystring: listNotificationsQuery,
          response: { 200: notificationPage, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const page = await listNotifications(ctx, user.id, request.query);
        return {
          notifications: page.items.map(presentFeedItem),
          nextCursor: page.nextCursor,
          unreadCount: page.unreadCount,
        };
      },
    );

    app.post(
      '/api/notifications/read',
      {
        schema: {
          tags,
          body: readNotificationsBody,
          response: { 200: readNotificationsResponse, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { ids, channelId } = request.body;
        const target = ids ? { ids } : { channelId: channelId as string };
        return { updated: await markNotificationsRead(ctx, user.id, target) };
      },
    );

    app.post(
      '/api/notifications/read-all',
      { schema: { tags, response: { 200: readNotificationsResponse, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return { updated: await markNotificationsRead(ctx, user.id, 'all') };
      },
    );

    app.get(
      '/api/workspaces/:workspaceName/mentions',
      { schema: { tags, params: workspaceParams, response: { 200: mentionCounts, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspace, role } = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(role, 'readWorkspace');
        return mentionCountsOf(ctx, user.id, workspace.id);
      },
    );
  };
