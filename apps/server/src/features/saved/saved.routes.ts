import { apiError } from '@cohort/shared/errors';
import {
  SAVED_EVENTS,
  type SavedChangedEvent,
  savedIds,
  savedItem,
  savedItemList,
  savedMessageParams,
} from '@cohort/shared/saved';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Namespace } from 'socket.io';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { userRoom } from '../../realtime/socket-server.ts';
import { presentSavedItem } from './saved.presenter.ts';
import { listSaved, savedIdsOf, saveMessage, unsaveMessage } from './saved.service.ts';

const errorResponses = { 400: apiError, 401: apiError, 404: apiError, 409: apiError };

/** Where `savedChanged` goes: every tab of the saver, on `/chat` and `/dm` (every node). */
export interface SavedRealtime {
  changed(userId: string, event: SavedChangedEvent): void;
}

export function savedRealtime(chat: Namespace, dm: Namespace): SavedRealtime {
  return {
    changed: (userId, event) => {
      chat.to(userRoom(userId)).emit(SAVED_EVENTS.savedChanged, event);
      dm.to(userRoom(userId)).emit(SAVED_EVENTS.savedChanged, event);
    },
  };
}

/**
 * Saved messages (issue 22): the caller's own, across workspaces and direct messages. Every route
 * only ever touches the caller's rows; saving needs read access to the message (404 otherwise).
 */
export const savedRoutes =
  (ctx: AppContext, realtime: SavedRealtime): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['saved'];

    app.get(
      '/api/saved',
      { schema: { tags, response: { 200: savedItemList, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return (await listSaved(ctx, user)).map(presentSavedItem);
      },
    );

    app.get(
      '/api/saved/ids',
      { schema: { tags, response: { 200: savedIds, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return savedIdsOf(ctx, user);
      },
    );

    app.put(
      '/api/saved/:kind/:messageId',
      { schema: { tags, params: savedMessageParams, response: { 200: savedItem, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { kind, messageId } = request.params;
        const { row, changed } = await saveMessage(ctx, user, kind, messageId);
        if (changed) realtime.changed(user.id, { kind, messageId: row.message_id, saved: true });
        return presentSavedItem(row);
      },
    );

    app.delete(
      '/api/saved/:kind/:messageId',
      {
        schema: {
          tags,
          params: savedMessageParams,
          response: { 204: z.null().describe('No content'), ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const { kind, messageId } = request.params;
        if (await unsaveMessage(ctx, user, kind, messageId)) {
          realtime.changed(user.id, { kind, messageId, saved: false });
        }
        return reply.status(204).send(null);
      },
    );
  };
