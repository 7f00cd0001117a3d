import { apiError } from '@cohort/shared/errors';
import {
  assignItemBody,
  createProjectBody,
  MANUAL_SYNCS_PER_MINUTE,
  PROJECT_MESSAGES,
  project,
  projectItem,
  projectItemParams,
  projectList,
  projectParams,
  projectWorkspaceParams,
  workspaceUserList,
} from '@cohort/shared/projects';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireRateLimit } from '../../http/rate-limit.ts';
import { requireUser } from '../../http/session.ts';
import { listWorkspaceUsers, loadWorkspaceForUser } from '../workspaces/workspaces.access.ts';
import { authorize } from '../workspaces/workspaces.policy.ts';
import type { GithubClient } from './github.client.ts';
import { loadProjectForUser } from './projects.access.ts';
import { presentProject, presentProjectItem, presentWorkspaceUser } from './projects.presenter.ts';
import {
  assignItem,
  createProject,
  deleteProject,
  listProjectViews,
  projectView,
  syncProject,
} from './projects.service.ts';

const errorResponses = {
  400: apiError,
  401: apiError,
  403: apiError,
  404: apiError,
  409: apiError,
  502: apiError,
  503: apiError,
};
const noContent = { 204: z.null().describe('No content') };

/** The project manager's routes (spec §7 "Projects"). `addedBy` and other identity fields are ignored. */
export const projectsRoutes =
  (ctx: AppContext, github: GithubClient): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request gets 401 before its input is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['projects'];

    app.get(
      '/api/workspaces/:workspaceId/projects',
      { schema: { tags, params: projectWorkspaceParams, response: { 200: projectList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspace, role } = await loadWorkspaceForUser(ctx, user, request.params.workspaceId);
        authorize(role, 'readWorkspace');
        return (await listProjectViews(ctx, { workspaceId: workspace.id })).map(presentProject);
      },
    );

    app.get(
      '/api/workspaces/:workspaceId/users',
      {
        schema: {
          tags,
          params: projectWorkspaceParams,
          response: { 200: workspaceUserList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspace, role } = await loadWorkspaceForUser(ctx, user, request.params.workspaceId);
        authorize(role, 'readWorkspace');
        return (await listWorkspaceUsers(ctx, workspace.id)).map(presentWorkspaceUser);
      },
    );

    app.post(
      '/api/projects',
      { schema: { tags, body: createProjectBody, response: { 201: project, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const { workspaceId, owner, repo } = request.body;
        const { workspace, role } = await loadWorkspaceForUser(ctx, user, workspaceId);
        authorize(role, 'addProject');
        const id = await createProject(ctx, github, user, workspace.id, { owner, repo });
        return reply.status(201).send(presentProject(await projectView(ctx, id)));
      },
    );

    app.post(
      '/api/projects/:projectId/sync',
      { schema: { tags, params: projectParams, response: { 200: project, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadProjectForUser(ctx, user, request.params.projectId);
        authorize(access.role, 'addProject');
        // Each manual sync spends the deployment's GitHub rate limit: a few per project per minute.
        await requireRateLimit(ctx, reply, {
          key: `project-sync:${access.project.id}`,
          limit: MANUAL_SYNCS_PER_MINUTE,
          windowMs: 60_000,
          message: PROJECT_MESSAGES.syncTooOften,
        });
        await syncProject(ctx, github, access.project.id);
        return presentProject(await projectView(ctx, access.project.id));
      },
    );

    app.patch(
      '/api/projects/:projectId/:kind/:itemId/assign',
      {
        schema: {
          tags,
          params: projectItemParams,
          body: assignItemBody,
          response: { 200: projectItem, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { projectId, kind, itemId } = request.params;
        const access = await loadProjectForUser(ctx, user, projectId);
        authorize(access.role, 'assignItem');
        return presentProjectItem(await assignItem(ctx, access.project, kind, itemId, request.body.userId));
      },
    );

    app.delete(
      '/api/projects/:projectId',
      { schema: { tags, params: projectParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadProjectForUser(ctx, user, request.params.projectId);
        authorize(access.role, 'deleteProject');
        await deleteProject(ctx, access.project);
        return reply.status(204).send(null);
      },
    );
  };
