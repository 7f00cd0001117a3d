import {
  CHAT_MESSAGES,
  channelHistoryQuery,
  channelMessage,
  channelMessageList,
  postChannelMessageBody,
} from '@cohort/shared/chat';
import { apiError } from '@cohort/shared/errors';
import { channelParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { authorizePost, CHAT_ROLES, loadChannelForChat } from './chat.policy.ts';
import { presentChannelMessage } from './chat.presenter.ts';
import { listChannelMessages, postChannelMessage } from './chat.service.ts';
import type { ChatRealtime } from './chat.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError };

/**
 * Channel history by seq (what a client fetches after a reconnect or a detected gap), and an HTTP
 * way to post for API clients and for outboxes that cannot wait for a socket: same service, same
 * idempotency, same broadcast as the socket's sendMessage.
 */
export const chatRoutes =
  (ctx: AppContext, realtime: ChatRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request is a 401 before anything is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['chat'];
    const url = '/api/workspaces/:workspaceName/channels/:channelId/messages';

    app.get(
      url,
      {
        schema: {
          tags,
          params: channelParams,
          querystring: channelHistoryQuery,
          response: { 200: channelMessageList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspaceName, channelId } = request.params;
        const access = await loadChannelForChat(ctx, user, workspaceName, channelId);
        const rows = await listChannelMessages(ctx, access.channel.id, request.query);
        return rows.map(presentChannelMessage);
      },
    );

    app.post(
      url,
      {
        schema: {
          tags,
          params: channelParams,
          body: postChannelMessageBody,
          response: { 200: channelMessage, 201: channelMessage, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const { workspaceName, channelId } = request.params;
        const access = await loadChannelForChat(ctx, user, workspaceName, channelId);
        authorizePost(access);
        const target = { channelId: access.channel.id, workspaceId: access.workspace.id };
        const stored = await postChannelMessage(ctx, user, target, request.body, CHAT_ROLES);
        // Access went away between the lookup and the insert.
        if (!stored) throw notFound(CHAT_MESSAGES.channelNotFound);
        const { message, created } = stored;
        const presented = presentChannelMessage(message);
        if (created) realtime.announce(user.id, presented);
        // A resend of a stored clientId is answered like the first time, but as "already there".
        return reply.status(created ? 201 : 200).send(presented);
      },
    );
  };
