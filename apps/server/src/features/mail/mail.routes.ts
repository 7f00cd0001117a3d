import { apiError } from '@cohort/shared/errors';
import { adminMailQuery, adminMailResponse } from '@cohort/shared/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { recentMail } from './mail.outbox.ts';
import { authorizeOperator } from './mail.policy.ts';
import { presentOutboxRow } from './mail.presenter.ts';

export const mailRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/mail',
      {
        schema: {
          tags: ['admin'],
          summary: 'Recent outgoing mail and its delivery outcome (operators listed in ADMIN_EMAILS only)',
          querystring: adminMailQuery,
          response: { 200: adminMailResponse, 401: apiError, 404: apiError },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        authorizeOperator(ctx.config, user);
        const rows = await recentMail(ctx.db, request.query);
        return { mail: rows.map(presentOutboxRow) };
      },
    );
  };
