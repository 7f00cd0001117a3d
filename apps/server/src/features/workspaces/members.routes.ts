import {
  addMemberBody,
  invitationParams,
  memberList,
  memberListItem,
  memberParams,
  updateMemberBody,
  workspaceParams,
} from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { revokeInvitation } from './invitations.service.ts';
import { addMember, leaveWorkspace, listMembers, removeMember, updateMemberRole } from './members.service.ts';
import { loadWorkspaceForUser } from './workspaces.access.ts';
import { errorResponses, noContent, requireSession } from './workspaces.http.ts';
import { authorize } from './workspaces.policy.ts';
import { presentMemberListItem } from './workspaces.presenter.ts';

export const membersRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['workspace members'];

    app.get(
      '/api/workspaces/:workspaceName/members',
      { schema: { tags, params: workspaceParams, response: { 200: memberList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'readWorkspace');
        return (await listMembers(ctx, access)).map(presentMemberListItem);
      },
    );

    // Adding invites: the answer is the pending invitation; membership starts when it is accepted.
    app.post(
      '/api/workspaces/:workspaceName/members',
      {
        schema: {
          tags,
          params: workspaceParams,
          body: addMemberBody,
          response: { 201: memberListItem, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageMembers');
        const member = await addMember(ctx, user, access.workspace, request.body);
        return reply.status(201).send(presentMemberListItem(member));
      },
    );

    app.patch(
      '/api/workspaces/:workspaceName/members/:userId',
      {
        schema: {
          tags,
          params: memberParams,
          body: updateMemberBody,
          response: { 200: memberListItem, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageRoles');
        const member = await updateMemberRole(
          ctx,
          access.workspace,
          request.params.userId,
          request.body.role,
        );
        return presentMemberListItem(member);
      },
    );

    app.delete(
      '/api/workspaces/:workspaceName/members/:userId',
      { schema: { tags, params: memberParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageMembers');
        await removeMember(ctx, access.workspace, request.params.userId);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/api/workspaces/:workspaceName/invitations/:email',
      { schema: { tags, params: invitationParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageMembers');
        await revokeInvitation(ctx, access.workspace, request.params.email);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/workspaces/:workspaceName/leave',
      { schema: { tags, params: workspaceParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName, {
          evenWithoutTwoFactor: true,
        });
        authorize(access.role, 'leaveWorkspace');
        await leaveWorkspace(ctx, user, access.workspace);
        return reply.status(204).send(null);
      },
    );
  };
