import { apiError } from '@cohort/shared/errors';
import { switcherData } from '@cohort/shared/switcher';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { presentSwitcher } from './switcher.presenter.ts';
import { switcherDestinations } from './switcher.service.ts';

/**
 * GET /api/switcher — the channels, people and workspaces the signed-in user can open from the quick
 * switcher and the search box's suggestions. Nothing to load or authorize per resource: the access
 * rules are part of the queries (switcher.service.ts).
 */
export const switcherRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });

    app.get(
      '/api/switcher',
      {
        schema: {
          tags: ['search'],
          summary: 'Channels, people and workspaces the caller can open (the quick switcher)',
          response: { 200: switcherData, 401: apiError },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return presentSwitcher(await switcherDestinations(ctx, user));
      },
    );
  };
