import { profileQuery, profileResponse, updateProfileBody } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { getProfile, updateProfile } from './profile.service.ts';
import { errorResponses, requireSession } from './workspaces.http.ts';
import { presentProfile } from './workspaces.presenter.ts';

/** The profile is always the caller's own; the spec's `?email=` never selects another user. */
export const profileRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['profile'];

    app.get(
      '/api/profile',
      { schema: { tags, querystring: profileQuery, response: { 200: profileResponse, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return presentProfile(await getProfile(ctx, user));
      },
    );

    app.patch(
      '/api/profile',
      { schema: { tags, body: updateProfileBody, response: { 200: profileResponse, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return presentProfile(await updateProfile(ctx, user, request.body));
      },
    );
  };
