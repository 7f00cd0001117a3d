import { apiError } from '@cohort/shared/errors';
import { PRESENCE_MESSAGES, personParams, personPresence, workspacePresence } from '@cohort/shared/presence';
import { workspaceParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { findUserByEmail } from '../workspaces/peers.access.ts';
import {
  listWorkspaceUsers,
  loadWorkspaceForUser,
  sharesWorkspace,
} from '../workspaces/workspaces.access.ts';
import { authorize } from '../workspaces/workspaces.policy.ts';
import type { PresenceRealtime } from './presence.socket.ts';

const errorResponses = { 400: apiError, 401: apiError, 404: apiError };

/** The statuses a member list starts from (live changes then come over `/presence`). */
export const presenceRoutes =
  (ctx: AppContext, presence: PresenceRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });

    app.get(
      '/api/workspaces/:workspaceName/presence',
      {
        schema: {
          tags: ['presence'],
          params: workspaceParams,
          response: { 200: workspacePresence, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'readWorkspace');
        const members = await listWorkspaceUsers(ctx, access.workspace.id);
        const statuses = await presence.statuses(members.map((m) => m.id));
        return Object.fromEntries(statuses);
      },
    );

    // One person by e-mail (a DM header knows no workspace). An unknown e-mail and someone who
    // shares no workspace with the caller get the same 404: it reveals neither accounts nor presence.
    app.get(
      '/api/presence/:email',
      {
        schema: {
          tags: ['presence'],
          params: personParams,
          response: { 200: personPresence, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const person = await findUserByEmail(ctx, request.params.email);
        if (!person || !(await sharesWorkspace(ctx, user.id, person.id))) {
          throw notFound(PRESENCE_MESSAGES.userNotFound);
        }
        const statuses = await presence.statuses([person.id]);
        return { userId: person.id, status: statuses.get(person.id) ?? 'offline' };
      },
    );
  };
