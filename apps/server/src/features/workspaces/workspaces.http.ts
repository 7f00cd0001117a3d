import { apiError } from '@cohort/shared/errors';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';

/** Documented error answers of this feature's routes (all of them `{message, field?}`). */
export const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 409: apiError };

/** A 204 answer has no body. */
export const noContent = { 204: z.null().describe('No content') };

/**
 * Authentication comes first in the pipeline: an anonymous request gets 401 before its body or
 * path is validated or looked up. Handlers call `requireUser` again (cached per request) for the user.
 */
export function requireSession(ctx: AppContext, app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    await requireUser(ctx, request);
  });
}
