import { apiError } from '@cohort/shared/errors';
import {
  channelUnread,
  channelUnreadList,
  directReadParams,
  directUnread,
  directUnreadList,
  markReadBody,
  muteBody,
} from '@cohort/shared/reads';
import { channelParams, workspaceParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import {
  listReadableChannels,
  loadChannelForUser,
  loadWorkspaceForUser,
} from '../workspaces/workspaces.access.ts';
import { authorize } from '../workspaces/workspaces.policy.ts';
import { presentChannelRead, presentDirectRead } from './reads.presenter.ts';
import type { ReadsService } from './reads.service.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError };
const tags = ['reads'];

/**
 * Read marks and mutes (packages/shared/src/reads.ts). Channels go through `loadChannelForUser`, so
 * a channel the caller cannot read (another workspace, a private one they are not listed in, a
 * workspace they left) is a 404 exactly like one that does not exist.
 */
export const readsRoutes =
  (ctx: AppContext, reads: ReadsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });

    app.get(
      '/api/workspaces/:workspaceName/unread',
      { schema: { tags, params: workspaceParams, response: { 200: channelUnreadList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspace, role } = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(role, 'readOpenChannel');
        const channels = await listReadableChannels(ctx, user, workspace.id);
        const states = await reads.listChannels(user.id, channels);
        return states.map(presentChannelRead);
      },
    );

    const loadChannel = async (userId: string, workspaceName: string, channelId: string) => {
      const access = await loadChannelForUser(ctx, { id: userId }, workspaceName, channelId);
      authorize(access.role, 'readOpenChannel');
      return access.channel;
    };

    app.put(
      '/api/workspaces/:workspaceName/channels/:channelId/read',
      {
        schema: {
          tags,
          params: channelParams,
          body: markReadBody,
          response: { 200: channelUnread, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspaceName, channelId } = request.params;
        const channel = await loadChannel(user.id, workspaceName, channelId);
        return presentChannelRead(await reads.markChannel(user.id, channel, request.body.seq));
      },
    );

    app.put(
      '/api/workspaces/:workspaceName/channels/:channelId/mute',
      {
        schema: {
          tags,
          params: channelParams,
          body: muteBody,
          response: { 200: channelUnread, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspaceName, channelId } = request.params;
        const channel = await loadChannel(user.id, workspaceName, channelId);
        return presentChannelRead(await reads.muteChannel(user.id, channel, request.body.muted));
      },
    );

    app.get(
      '/api/direct/unread',
      { schema: { tags, response: { 200: directUnreadList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await reads.listDirect(user.id)).map(presentDirectRead);
      },
    );

    app.put(
      '/api/direct/:email/read',
      {
        schema: {
          tags,
          params: directReadParams,
          body: markReadBody,
          response: { 200: directUnread, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return presentDirectRead(await reads.markDirect(user, request.params.email, request.body.seq));
      },
    );
  };
