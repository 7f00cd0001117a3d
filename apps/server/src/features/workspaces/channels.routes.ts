import {
  addChannelMembersBody,
  browseChannelList,
  channelMemberList,
  channelMemberParams,
} from '@cohort/shared/channels';
import { roleCan } from '@cohort/shared/permissions';
import {
  channel,
  channelList,
  channelParams,
  createChannelBody,
  updateChannelBody,
  workspaceParams,
} from '@cohort/shared/workspaces';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import {
  addChannelMembers,
  browseChannels,
  createChannel,
  deleteChannel,
  getChannel,
  joinChannel,
  leaveChannel,
  listChannelMembers,
  listChannels,
  removeChannelMember,
  setChannelArchived,
  setChannelStarred,
  updateChannel,
} from './channels.service.ts';
import { loadChannelForUser, loadWorkspaceForUser } from './workspaces.access.ts';
import { errorResponses, noContent, requireSession } from './workspaces.http.ts';
import { authorize, canEditChannel } from './workspaces.policy.ts';
import { presentBrowseChannel, presentChannel, presentChannelMember } from './workspaces.presenter.ts';

type ChannelRequest = FastifyRequest & { params: { workspaceName: string; channelId: string } };

export const channelsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    requireSession(ctx, app);
    const tags = ['channels'];
    /** The caller and the channel named by the route (404 unless they may see it). */
    const channelOf = async (request: ChannelRequest) => {
      const user = await requireUser(ctx, request);
      const { workspaceName, channelId } = request.params;
      return { user, access: await loadChannelForUser(ctx, user, workspaceName, channelId) };
    };

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
        const { user, access } = await channelOf(request);
        return presentChannel(await getChannel(ctx, user, access.channel));
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
        const { user, access } = await channelOf(request);
        const { name, description, topic } = request.body;
        const mayEdit = canEditChannel(access.role, access.channel, user.id);
        // The name and description are the creator's or an admin's; the topic any editor's too.
        if ((name !== undefined || description !== undefined) && !mayEdit) throw forbidden();
        if (topic !== undefined && !mayEdit && !roleCan(access.role, 'setChannelTopic')) throw forbidden();
        const updated = await updateChannel(ctx, user, access.channel, request.body);
        return presentChannel(await getChannel(ctx, user, updated));
      },
    );

    app.delete(
      '/api/workspaces/:workspaceName/channels/:channelId',
      { schema: { tags, params: channelParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const { access } = await channelOf(request);
        authorize(access.role, 'manageChannels');
        await deleteChannel(ctx, access.channel);
        return reply.status(204).send(null);
      },
    );

    // Issue 22: browsing, joining, archiving, members, stars (docs/permissions.md, "Channels").

    app.get(
      '/api/workspaces/:workspaceName/channels/browse',
      { schema: { tags, params: workspaceParams, response: { 200: browseChannelList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const access = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(access.role, 'joinChannel');
        return (await browseChannels(ctx, user, access.workspace)).map(presentBrowseChannel);
      },
    );

    for (const [path, action] of [
      ['join', 'join'],
      ['leave', 'leave'],
    ] as const) {
      app.post(
        `/api/workspaces/:workspaceName/channels/:channelId/${path}`,
        {
          schema: {
            tags,
            params: channelParams,
            response: { 200: channel, ...noContent, ...errorResponses },
          },
        },
        async (request, reply) => {
          const { user, access } = await channelOf(request);
          authorize(access.role, 'joinChannel');
          if (action === 'join') {
            await joinChannel(ctx, user, access);
          } else {
            await leaveChannel(ctx, user, access);
            // Out of a private channel, the caller no longer reads it: nothing to show.
            if (access.channel.isPrivate) return reply.status(204).send(null);
          }
          return presentChannel(await getChannel(ctx, user, access.channel));
        },
      );
    }

    for (const [path, archived] of [
      ['archive', true],
      ['unarchive', false],
    ] as const) {
      app.post(
        `/api/workspaces/:workspaceName/channels/:channelId/${path}`,
        { schema: { tags, params: channelParams, response: { 200: channel, ...errorResponses } } },
        async (request) => {
          const { user, access } = await channelOf(request);
          authorize(access.role, 'archiveChannel');
          const row = await setChannelArchived(ctx, user, access.channel, archived);
          return presentChannel(await getChannel(ctx, user, row));
        },
      );
    }

    for (const [method, starred] of [
      ['PUT', true],
      ['DELETE', false],
    ] as const) {
      app.route({
        method,
        url: '/api/workspaces/:workspaceName/channels/:channelId/star',
        schema: { tags, params: channelParams, response: { 200: channel, ...errorResponses } },
        handler: async (request) => {
          const { user, access } = await channelOf(request as ChannelRequest);
          authorize(access.role, 'joinChannel');
          await setChannelStarred(ctx, user, access.channel, starred);
          return presentChannel(await getChannel(ctx, user, access.channel));
        },
      });
    }

    app.get(
      '/api/workspaces/:workspaceName/channels/:channelId/members',
      { schema: { tags, params: channelParams, response: { 200: channelMemberList, ...errorResponses } } },
      async (request) => {
        const { access } = await channelOf(request);
        authorize(access.role, 'readOpenChannel');
        return (await listChannelMembers(ctx, access.channel)).map(presentChannelMember);
      },
    );

    app.post(
      '/api/workspaces/:workspaceName/channels/:channelId/members',
      {
        schema: {
          tags,
          params: channelParams,
          body: addChannelMembersBody,
          response: { 200: channelMemberList, ...errorResponses },
        },
      },
      async (request) => {
        const { user, access } = await channelOf(request);
        authorize(access.role, 'manageChannelMembers');
        await addChannelMembers(ctx, user, access.channel, request.body.userIds);
        return (await listChannelMembers(ctx, access.channel)).map(presentChannelMember);
      },
    );

    app.delete(
      '/api/workspaces/:workspaceName/channels/:channelId/members/:userId',
      { schema: { tags, params: channelMemberParams, response: { ...noContent, ...errorResponses } } },
      async (request, reply) => {
        const { user, access } = await channelOf(request);
        authorize(access.role, 'manageChannelMembers');
        await removeChannelMember(ctx, user, access.channel, request.params.userId);
        return reply.status(204).send(null);
      },
    );
  };
