import { apiError } from '@cohort/shared/errors';
import { revokeOthersResponse, SECURITY_MESSAGES, sessionList, sessionParams } from '@cohort/shared/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { presentSession } from './sessions.presenter.ts';
import { listSessions, revokeOtherSessionsOfUser, revokeSessionOfUser } from './sessions.service.ts';

const errors = { 400: apiError, 401: apiError, 404: apiError };

/** The signed-in user's sessions (Profile → Security): list, revoke one, revoke all the others. */
export const sessionsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request gets 401 before its path is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['sessions'];

    app.get(
      '/api/sessions',
      { schema: { tags, response: { 200: sessionList, ...errors } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listSessions(ctx, user)).map((s) => presentSession(s, user.sessionId));
      },
    );

    app.delete(
      '/api/sessions/:sessionId',
      {
        schema: {
          tags,
          params: sessionParams,
          response: { 204: z.null().describe('No content'), ...errors },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        await revokeSessionOfUser(ctx, user, request.params.sessionId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/sessions/revoke-others',
      { schema: { tags, response: { 200: revokeOthersResponse, ...errors } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const revoked = await revokeOtherSessionsOfUser(ctx, user);
        return { message: SECURITY_MESSAGES.othersRevoked, revoked };
      },
    );
  };
