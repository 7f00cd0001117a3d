import { findUnstorableText, UNSTORABLE_TEXT } from '@cohort/shared/text';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/**
 * A safety net under the shared zod text schemas: no request reaches a route with a NUL character or
 * a lone surrogate anywhere in its JSON body, query or path parameters (the database cannot store
 * them, and a route that forgot the schema must not turn them into a 500). Answered as 400 naming
 * the field.
 */
export function registerStorableInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const value of [request.params, request.query, request.body]) {
      const field = findUnstorableText(value);
      if (field !== null) throw badRequest(`${field}: ${UNSTORABLE_TEXT}`, field);
    }
  });
}

/** The same for a socket event's arguments: the reason for a `{ok: false}` acknowledgement, or null. */
export function unstorableReason(args: unknown[]): string | null {
  for (const arg of args) {
    if (typeof arg === 'function') continue;
    const field = findUnstorableText(arg);
    if (field !== null) return `${field}: ${UNSTORABLE_TEXT}`;
  }
  return null;
}
