import {
  CHAT_MESSAGES,
  channelHistoryQuery,
  channelMessage,
  channelMessageList,
  channelMessageParams,
  channelReactionParams,
  editMessageBody,
  HISTORY_MAX_LIMIT,
  postChannelMessageBody,
} from '@cohort/shared/chat';
import { apiError } from '@cohort/shared/errors';
import { channelParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import {
  deleteChannelMessage,
  editChannelMessage,
  reactToChannelMessage,
  sendChannelMessage,
} from './chat.actions.ts';
import { loadChannelForChat } from './chat.policy.ts';
import { presentChannelMessage } from './chat.presenter.ts';
import { listChannelMessages, listThread } from './chat.service.ts';
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
        // The same per-user budget as the sockets: posting over HTTP is no way around it.
        if (!realtime.sendLimiter.take(user.id)) throw new HttpError(429, CHAT_MESSAGES.slowDown);
        const { message, created } = await sendChannelMessage(
          ctx,
          realtime,
          user,
          request.params,
          request.body,
        );
        // A resend of a stored clientId is answered like the first time, but as "already there".
        return reply.status(created ? 201 : 200).send(message);
      },
    );

    const messageUrl = `${url}/:messageId`;
    const messageResponses = { 200: channelMessage, ...errorResponses };

    // Edit: the sender only. Readers of the channel get 403, everyone else 404.
    app.patch(
      messageUrl,
      { schema: { tags, params: channelMessageParams, body: editMessageBody, response: messageResponses } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return editChannelMessage(ctx, realtime, user, request.params, request.body.content);
      },
    );

    // Delete: the sender, or an admin of the workspace (moderation).
    app.delete(
      messageUrl,
      { schema: { tags, params: channelMessageParams, response: messageResponses } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return deleteChannelMessage(ctx, realtime, user, request.params);
      },
    );

    // Reactions: PUT adds the caller's, DELETE removes it (both idempotent; the client toggles).
    for (const method of ['put', 'delete'] as const) {
      app[method](
        `${messageUrl}/reactions/:emoji`,
        { schema: { tags, params: channelReactionParams, response: messageResponses } },
        async (request) => {
          const user = await requireUser(ctx, request);
          const { emoji, ...ref } = request.params;
          return reactToChannelMessage(ctx, realtime, user, ref, emoji, method === 'put');
        },
      );
    }

    // A thread's replies, oldest first (the parent comes from the channel's history).
    app.get(
      `${messageUrl}/thread`,
      {
        schema: {
          tags,
          params: channelMessageParams,
          response: { 200: channelMessageList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspaceName, channelId, messageId } = request.params;
        const access = await loadChannelForChat(ctx, user, workspaceName, channelId);
        const rows = await listThread(ctx, access.channel.id, messageId, HISTORY_MAX_LIMIT);
        return rows.map(presentChannelMessage);
      },
    );
  };
