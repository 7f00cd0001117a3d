import { directHistoryParams, directHistoryQuery, directMessageList } from '@cohort/shared/chat';
import { apiError } from '@cohort/shared/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { authorizeReader } from './direct.policy.ts';
import { presentDirectMessage } from './direct.presenter.ts';
import { findUserByEmail, listDirectMessages } from './direct.service.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError };

/** The direct conversation between the caller and `?with=`, oldest first (spec: limit 50). */
export const directRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
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
  };
