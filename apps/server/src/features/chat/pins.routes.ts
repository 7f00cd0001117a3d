import { channelMessage, channelMessageParams } from '@cohort/shared/chat';
import { apiError } from '@cohort/shared/errors';
import { channelPinList } from '@cohort/shared/pins';
import { channelParams } from '@cohort/shared/workspaces';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { pinChannelMessage } from './chat.actions.ts';
import { loadChannelForChat } from './chat.policy.ts';
import { presentChannelPin } from './chat.presenter.ts';
import type { ChatRealtime } from './chat.socket.ts';
import { listPins } from './pins.service.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };

/**
 * Pinned messages (issue 22): the channel's Pins panel, and pinning or unpinning a message (editors
 * and admins, `pinMessages`). Rules: docs/permissions.md; events: docs/realtime.md.
 */
export const pinsRoutes =
  (ctx: AppContext, realtime: ChatRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['chat'];

    // Every reader of the channel sees its pins, newest pin first.
    app.get(
      '/api/workspaces/:workspaceName/channels/:channelId/pins',
      { schema: { tags, params: channelParams, response: { 200: channelPinList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspaceName, channelId } = request.params;
        const access = await loadChannelForChat(ctx, user, workspaceName, channelId);
        return (await listPins(ctx, access.channel.id)).map(presentChannelPin);
      },
    );

    // PUT pins, DELETE unpins (both idempotent); each answers the message's new state.
    for (const method of ['put', 'delete'] as const) {
      app[method](
        '/api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/pin',
        {
          schema: {
            tags,
            params: channelMessageParams,
            response: { 200: channelMessage, ...errorResponses },
          },
        },
        async (request) => {
          const user = await requireUser(ctx, request);
          return pinChannelMessage(ctx, realtime, user, request.params, method === 'put');
        },
      );
    }
  };
