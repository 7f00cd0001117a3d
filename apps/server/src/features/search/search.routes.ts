import { apiError } from '@cohort/shared/errors';
import { parseSearchQuery, searchQuery, searchResults } from '@cohort/shared/search';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { presentSearchResults } from './search.presenter.ts';
import { search } from './search.service.ts';

const errorResponses = { 400: apiError, 401: apiError };

/**
 * GET /api/search?q=&limit=&cursor= — what the signed-in user can read, grouped. There is nothing
 * to load or authorize per resource: the caller's access rules are part of every query's SQL.
 */
export const searchRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request is a 401 before anything is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });

    app.get(
      '/api/search',
      {
        schema: {
          tags: ['search'],
          summary: 'Search messages, channels, tasks and people the caller can read',
          querystring: searchQuery,
          response: { 200: searchResults, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const parsed = parseSearchQuery(request.query.q);
        // The schema already refused a query that does not parse.
        if (!parsed.ok) throw badRequest(parsed.message, 'q');
        const found = await search(ctx, user, parsed.query, request.query);
        return presentSearchResults(parsed.query, found);
      },
    );
  };
