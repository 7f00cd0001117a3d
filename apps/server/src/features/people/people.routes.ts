import { apiError } from '@cohort/shared/errors';
import { peopleSearchQuery, person, personList, personParams } from '@cohort/shared/people';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import { loadPeerForUser, searchPeers } from '../workspaces/peers.access.ts';
import { presentPerson } from './people.presenter.ts';

const errorResponses = { 400: apiError, 401: apiError, 404: apiError };
const tags = ['people'];

/**
 * The people the caller may message and call: those sharing a workspace with them
 * (packages/shared/src/people.ts). Anyone else is a 404, like an address nobody uses.
 */
export const peopleRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });

    app.get(
      '/api/people',
      {
        schema: {
          tags,
          summary: 'People who share a workspace with the caller, by name or e-mail',
          querystring: peopleSearchQuery,
          response: { 200: personList, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { q, limit } = request.query;
        return (await searchPeers(ctx, user.id, q, limit)).map(presentPerson);
      },
    );

    app.get(
      '/api/people/:email',
      {
        schema: {
          tags,
          summary: 'One person who shares a workspace with the caller (their profile card)',
          params: personParams,
          response: { 200: person, ...errorResponses },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return presentPerson(await loadPeerForUser(ctx, user.id, request.params.email));
      },
    );
  };
