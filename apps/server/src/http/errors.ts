import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isDataException, isDiskFull } from './db-errors.ts';

/** Thrown by services and policies; becomes `{message}` with this status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, field);
export const unauthorized = (message = 'Please log in') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

const fastifyCodes: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Send the request body as application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Malformed JSON body' },
};

export const STORAGE_FULL = 'The server is out of storage space. Nothing was saved; try again later.';
export const UNAVAILABLE = 'The service is temporarily unavailable. Try again in a moment.';
export const INVALID_VALUE = 'A value is out of range or cannot be stored. Check dates, numbers and text.';

/** One error shape for the whole API: `{message, field?}`, never internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, field: error.field });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined;
      // Custom (object-level) checks carry the whole sentence; field-level ones get the field named.
      const message =
        first?.keyword === 'custom' || !field
          ? (first?.message ?? 'Invalid input')
          : `${field}: ${first?.message}`;
      return reply.status(400).send({ message, field });
    }
    const known = error.code ? fastifyCodes[error.code] : undefined;
    if (known) return reply.status(known.status).send({ message: known.message });
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return reply.status(400).send({ message: 'Malformed JSON body' });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({ message: 'Too many requests. Please slow down.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'disk full');
      // An upload refused mid-body: the rest is never read, so the connection cannot be reused.
      if (!request.raw.complete) reply.header('connection', 'close');
      return reply.status(507).send({ message: STORAGE_FULL });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.header('retry-after', '5').status(503).send({ message: UNAVAILABLE });
    }
    if (isDataException(error)) {
      // A route whose schema let such a value through: answered as bad input, logged to be tightened.
      request.log.warn({ err: error }, 'data exception reached the database');
      return reply.status(400).send({ message: INVALID_VALUE });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error' });
  });
}
