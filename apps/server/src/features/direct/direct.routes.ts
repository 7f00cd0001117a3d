import {
  directHistoryParams,
  directHistoryQuery,
  directMessage,
  directMessageList,
  directMessageParams,
  directReactionParams,
  editMessageBody,
} from '@cohort/shared/chat';
import { apiError } from '@cohort/shared/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { deleteDirectMessage, editDirectMessage, reactToDirectMessage } from './direct.actions.ts';
import { authorizeReader } from './direct.policy.ts';
import { presentDirectMessage } from './direct.presenter.ts';
import { findUserByEmail, listDirectMessages } from './direct.service.ts';
import type { DirectRealtime } from './direct.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError };

/** The direct conversation between the caller and `?with=`, oldest first (spec: limit 50). */
export const directRoutes =
  (ctx: AppContext, realtime: DirectRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });

    app.get(
      '/api/messages/:email',
      {
        schema: {
          tags: ['direct'],
          params: directHistoryParams,
          querystring: directHistoryQuery,
          response: { 200: directMessageList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        authorizeReader(user, request.params.email);
        const other = await findUserByEmail(ctx, request.query.with);
        // Nobody by that e-mail and nobody you have written to look the same: an empty conversation.
        if (!other || other.id === user.id) return [];
        const rows = await listDirectMessages(ctx, user, other, request.query);
        return rows.map(presentDirectMessage);
      },
    );

    const tags = ['direct'];
    const responses = { 200: directMessage, ...errorResponses };

    // Edit and delete: the sender only; the other party gets 403, anyone else 404.
    app.patch(
      '/api/direct-messages/:messageId',
      { schema: { tags, params: directMessageParams, body: editMessageBody, response: responses } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return editDirectMessage(ctx, realtime, user, request.params.messageId, request.body.content);
      },
    );
    app.delete(
      '/api/direct-messages/:messageId',
      { schema: { tags, params: directMessageParams, response: responses } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return deleteDirectMessage(ctx, realtime, user, request.params.messageId);
      },
    );
    for (const method of ['put', 'delete'] as const) {
      app[method](
        '/api/direct-messages/:messageId/reactions/:emoji',
        { schema: { tags, params: directReactionParams, response: responses } },
        async (request) => {
          const user = await requireUser(ctx, request);
          const { messageId, emoji } = request.params;
          return reactToDirectMessage(ctx, realtime, user, messageId, emoji, method === 'put');
        },
      );
    }
  };
