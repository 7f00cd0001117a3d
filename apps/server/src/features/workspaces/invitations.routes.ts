import {
  acceptInvitationResponse,
  invitationIdParams,
  myInvitationList,
  workspaceInvitation,
  workspaceInvitationList,
  workspaceInvitationParams,
} from '@cohort/shared/invitations';
import { workspaceParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { authorizeInvitee } from './invitations.policy.ts';
import {
  presentAcceptedInvitation,
  presentMyInvitation,
  presentWorkspaceInvitation,
} from './invitations.presenter.ts';
import {
  acceptInvitation,
  declineInvitation,
  listMyInvitations,
  listWorkspaceInvitations,
  loadInvitationForUser,
  resendInvitation,
} from './invitations.service.ts';
import { loadWorkspaceForUser } from './workspaces.access.ts';
import { errorResponses, noContent, requireSession } from './workspaces.http.ts';
import { authorize } from './workspaces.policy.ts';

/** 410: an expired invitation cannot be accepted until an admin resends it. */
const invitationErrors = { ...errorResponses, 410: errorResponses[404] };

/**
 * Invitations: mine (list, accept, decline) and a workspace's pending ones for its admins (list,
 * resend; revoking is DELETE …/invitations/{email} beside the members routes).
 */
export const invitationsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['invitations'];

    app.get(
      '/api/invitations',
      { schema: { tags, response: { 200: myInvitationList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listMyInvitations(ctx, user)).map(presentMyInvitation);
      },
    );

    app.post(
      '/api/invitations/:invitationId/accept',
      {
        schema: {
          tags,
          params: invitationIdParams,
          response: { 200: acceptInvitationResponse, ...invitationErrors },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const invitation = await loadInvitationForUser(ctx, user, request.params.invitationId);
        authorizeInvitee(user);
        return presentAcceptedInvitation(await acceptInvitation(ctx, user, invitation));
      },
    );

    app.post(
      '/api/invitations/:invitationId/decline',
      { schema: { tags, params: invitationIdParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const invitation = await loadInvitationForUser(ctx, user, request.params.invitationId);
        authorizeInvitee(user);
        await declineInvitation(ctx, invitation);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/workspaces/:workspaceName/invitations',
      {
        schema: {
          tags,
          params: workspaceParams,
          response: { 200: workspaceInvitationList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageMembers');
        return (await listWorkspaceInvitations(ctx, access.workspace)).map(presentWorkspaceInvitation);
      },
    );

    app.post(
      '/api/workspaces/:workspaceName/invitations/:email/resend',
      {
        schema: {
          tags,
          params: workspaceInvitationParams,
          response: { 200: workspaceInvitation, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'manageMembers');
        const view = await resendInvitation(ctx, user, access.workspace, request.params.email);
        return presentWorkspaceInvitation(view);
      },
    );
  };
