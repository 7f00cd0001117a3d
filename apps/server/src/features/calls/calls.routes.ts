import { createRoomResponse, iceServersResponse } from '@cohort/shared/calls';
import { apiError } from '@cohort/shared/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { type AdHocRooms, iceServersFor } from './calls.service.ts';

/** ICE servers for the session user (TURN credentials derived per user, valid 1 hour) and ad-hoc rooms. */
export const callsRoutes =
  (ctx: AppContext, adHoc: AdHocRooms): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/calls/ice-servers',
      { schema: { tags: ['calls'], response: { 200: iceServersResponse, 401: apiError } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        reply.header('cache-control', 'no-store');
        return { iceServers: iceServersFor(ctx, user.id) };
      },
    );

    app.post(
      '/api/calls/rooms',
      { schema: { tags: ['calls'], response: { 201: createRoomResponse, 401: apiError } } },
      async (request, reply) => {
        await requireUser(ctx, request);
        const roomId = adHoc.create();
        return reply.status(201).send({ roomId, url: `/mesh?room=${encodeURIComponent(roomId)}` });
      },
    );
  };
