import {
  createWorkspaceBody,
  getWorkspaceQuery,
  listWorkspacesQuery,
  updateWorkspaceBody,
  workspaceDetail,
  workspaceList,
  workspaceParams,
} from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { channelsRoutes } from './channels.routes.ts';
import { invitationsRoutes } from './invitations.routes.ts';
import { membersRoutes } from './members.routes.ts';
import { profileRoutes } from './profile.routes.ts';
import { requireTwoFactorRoutes } from './require-two-factor.routes.ts';
import { loadWorkspaceForUser } from './workspaces.access.ts';
import { errorResponses, noContent, requireSession } from './workspaces.http.ts';
import { authorize } from './workspaces.policy.ts';
import { presentWorkspaceDetail, presentWorkspaceSummary } from './workspaces.presenter.ts';
import {
  createWorkspace,
  deleteWorkspace,
  getWorkspaceDetail,
  listWorkspacesForUser,
  updateWorkspace,
} from './workspaces.service.ts';

/** Every workspace, member, invitation, channel and profile route (registered once from app.ts). */
export const workspacesRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(workspaceRoutes(ctx));
    await app.register(membersRoutes(ctx));
    await app.register(invitationsRoutes(ctx));
    await app.register(channelsRoutes(ctx));
    await app.register(profileRoutes(ctx));
    await app.register(requireTwoFactorRoutes(ctx));
  };

const workspaceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['workspaces'];

    app.post(
      '/api/workspaces',
      { schema: { tags, body: createWorkspaceBody, response: { 201: workspaceDetail, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await createWorkspace(ctx, user, request.body);
        const view = await getWorkspaceDetail(ctx, user, access);
        return reply.status(201).send(presentWorkspaceDetail(view));
      },
    );

    app.get(
      '/api/workspaces',
      {
        schema: {
          tags,
          querystring: listWorkspacesQuery,
          response: { 200: workspaceList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listWorkspacesForUser(ctx, user)).map(presentWorkspaceSummary);
      },
    );

    app.get(
      '/api/workspaces/:workspaceName',
      {
        schema: {
          tags,
          params: workspaceParams,
          querystring: getWorkspaceQuery,
          response: { 200: workspaceDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'readWorkspace');
        return presentWorkspaceDetail(await getWorkspaceDetail(ctx, user, access));
      },
    );

    app.patch(
      '/api/workspaces/:workspaceName',
      {
        schema: {
          tags,
          params: workspaceParams,
          body: updateWorkspaceBody,
          response: { 200: workspaceDetail, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'editWorkspace');
        const workspace = await updateWorkspace(ctx, access.workspace, request.body);
        return presentWorkspaceDetail(await getWorkspaceDetail(ctx, user, { ...access, workspace }));
      },
    );

    app.delete(
      '/api/workspaces/:workspaceName',
      { schema: { tags, params: workspaceParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'deleteWorkspace');
        await deleteWorkspace(ctx, access.workspace);
        return reply.status(204).send(null);
      },
    );
  };
