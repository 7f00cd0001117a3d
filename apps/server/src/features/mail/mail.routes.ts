import { apiError } from '@cohort/shared/errors';
import { adminMailQuery, adminMailResponse } from '@cohort/shared/mail';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { mailOutbox } from '../../db/schema.ts';
import { requireUser } from '../../http/session.ts';
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
        const { status, limit } = request.query;
        const rows = await ctx.db
          .select()
          .from(mailOutbox)
          .where(status ? eq(mailOutbox.status, status) : undefined)
          .orderBy(desc(mailOutbox.createdAt))
          .limit(limit);
        return { mail: rows.map(presentOutboxRow) };
      },
    );
  };
