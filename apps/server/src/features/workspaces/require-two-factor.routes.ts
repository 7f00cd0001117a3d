import { workspaceTwoFactorBody, workspaceTwoFactorResponse } from '@cohort/shared/security';
import { workspaceParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { authorizeTwoFactorRequirement } from './require-two-factor.policy.ts';
import { setTwoFactorRequirement, twoFactorRequirementOf } from './require-two-factor.service.ts';
import { loadWorkspaceForUser } from './workspaces.access.ts';
import { errorResponses, requireSession } from './workspaces.http.ts';
import { authorize } from './workspaces.policy.ts';

/** Workspace settings → "Require two-factor sign-in" (admins). */
export const requireTwoFactorRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['workspaces'];

    app.get(
      '/api/workspaces/:workspaceName/two-factor',
      {
        schema: {
          tags,
          params: workspaceParams,
          response: { 200: workspaceTwoFactorResponse, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageMembers');
        return twoFactorRequirementOf(ctx, access.workspace);
      },
    );

    app.put(
      '/api/workspaces/:workspaceName/two-factor',
      {
        schema: {
          tags,
          params: workspaceParams,
          body: workspaceTwoFactorBody,
          response: { 200: workspaceTwoFactorResponse, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorizeTwoFactorRequirement(access.role, user.twoFactorEnabled, request.body.required);
        return setTwoFactorRequirement(ctx, access.workspace, request.body.required);
      },
    );
  };
