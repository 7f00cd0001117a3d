import { apiError } from '@cohort/shared/errors';
import {
  channelSummary,
  SUMMARY_MESSAGES,
  summarizeBody,
  summarizeResponse,
  summaryQuery,
} from '@cohort/shared/summaries';
import { channelParams } from '@cohort/shared/workspaces';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { loadChannelForUser } from '../workspaces/workspaces.access.ts';
import { authorize } from '../workspaces/workspaces.policy.ts';
import { takeSummaryRequest } from './summaries.rate-limit.ts';
import type { SummariesService } from './summaries.service.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 429: apiError };

/** The summarize body may be up to 500 KB of messages; JSON escaping can roughly double that on the wire. */
const SUMMARIZE_BODY_LIMIT = 2 * 1024 * 1024;

export const summariesRoutes =
  (ctx: AppContext, service: SummariesService): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request is a 401 before anything is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['summaries'];

    /** Both routes share one budget per user; a refusal says when to come back. */
    const limit = async (userId: string, reply: FastifyReply) => {
      const waitMs = await takeSummaryRequest(ctx, userId);
      if (waitMs === null) return;
      reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
      throw new HttpError(429, SUMMARY_MESSAGES.rateLimited);
    };

    app.get(
      '/api/workspaces/:workspaceName/channels/:channelId/summary',
      {
        schema: {
          tags,
          summary: 'Summary of a channel over the last `timeframe` hours',
          params: channelParams,
          querystring: summaryQuery,
          response: { 200: channelSummary, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        await limit(user.id, reply);
        const { workspaceName, channelId } = request.params;
        // 404 for non-members and for private channels the user is not listed in.
        const access = await loadChannelForUser(ctx, user, workspaceName, channelId);
        authorize(access.role, 'readOpenChannel');
        return service.channelSummary(access.channel.id, request.query.timeframe);
      },
    );

    app.post(
      '/api/summarize',
      {
        bodyLimit: SUMMARIZE_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Summary of the given messages',
          body: summarizeBody,
          response: { 200: summarizeResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        await limit(user.id, reply);
        return service.summarizeMessages(request.body);
      },
    );
  };
