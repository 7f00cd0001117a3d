import {
  channel,
  channelList,
  channelParams,
  createChannelBody,
  updateChannelBody,
  workspaceParams,
} from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { createChannel, deleteChannel, getChannel, listChannels, updateChannel } from './channels.service.ts';
import { loadChannelForUser, loadWorkspaceForUser } from './workspaces.access.ts';
import { errorResponses, noContent, requireSession } from './workspaces.http.ts';
import { authorize, canEditChannel } from './workspaces.policy.ts';
import { presentChannel } from './workspaces.presenter.ts';

export const channelsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['channels'];

    app.get(
      '/api/workspaces/:workspaceName/channels',
      { schema: { tags, params: workspaceParams, response: { 200: channelList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'readOpenChannel');
        return (await listChannels(ctx, user, access.workspace)).map(presentChannel);
      },
    );

    app.post(
      '/api/workspaces/:workspaceName/channels',
      {
        schema: {
          tags,
          params: workspaceParams,
          body: createChannelBody,
          response: { 201: channel, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'createChannel');
        const created = await createChannel(ctx, user, access.workspace, request.body);
        return reply.status(201).send(presentChannel(created));
      },
    );

    app.get(
      '/api/workspaces/:workspaceName/channels/:channelId',
      { schema: { tags, params: channelParams, response: { 200: channel, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadChannelForUser(
          ctx,
          user,
          request.params.workspaceName,
          request.params.channelId,
        );
        return presentChannel(await getChannel(ctx, access.channel));
      },
    );

    app.patch(
      '/api/workspaces/:workspaceName/channels/:channelId',
      {
        schema: {
          tags,
          params: channelParams,
          body: updateChannelBody,
          response: { 200: channel, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadChannelForUser(
          ctx,
          user,
          request.params.workspaceName,
          request.params.channelId,
        );
        if (!canEditChannel(access.role, access.channel, user.id)) throw forbidden();
        const updated = await updateChannel(ctx, access.channel, request.body);
        return presentChannel(await getChannel(ctx, updated));
      },
    );

    app.delete(
      '/api/workspaces/:workspaceName/channels/:channelId',
      { schema: { tags, params: channelParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const access = await loadChannelForUser(
          ctx,
          user,
          request.params.workspaceName,
          request.params.channelId,
        );
        authorize(access.role, 'manageChannels');
        await deleteChannel(ctx, access.channel);
        return reply.status(204).send(null);
      },
    );
  };
