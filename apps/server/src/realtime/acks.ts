import { CHAT_MESSAGES } from '@cohort/shared/chat';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable, isDataException, isDiskFull } from '../http/db-errors.ts';
import { HttpError, INVALID_VALUE } from '../http/errors.ts';

export type Ack = (answer: unknown) => void;

/** A client may emit without a callback; answering it is then a no-op. */
export const ackOf = (ack: unknown): Ack => (typeof ack === 'function' ? (ack as Ack) : () => {});

/** The first problem of an invalid payload, as the reason of a `{ok: false}` acknowledgement. */
export function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue || issue.path.length === 0) return CHAT_MESSAGES.invalidPayload;
  return issue.message;
}

/**
 * Failures become acknowledgements, never crashes: a 404 of any kind reads as `notFoundReason`
 * (no existence leak), other HTTP errors keep their message, a full disk and an unreachable
 * database get their own reasons (the second is transient: clients resend), anything else is logged.
 */
export function failureReason(ctx: AppContext, err: unknown, notFoundReason: string): string {
  if (err instanceof HttpError) return err.statusCode === 404 ? notFoundReason : err.message;
  if (isDiskFull(err)) {
    ctx.log.error({ err }, 'socket handler failed: disk full');
    return CHAT_MESSAGES.storageFull;
  }
  if (isDatabaseUnavailable(err)) {
    ctx.log.warn({ err }, 'socket handler failed: database unavailable');
    return CHAT_MESSAGES.unavailable;
  }
  if (isDataException(err)) {
    ctx.log.warn({ err }, 'socket handler: data exception reached the database');
    return INVALID_VALUE;
  }
  ctx.log.error({ err }, 'socket handler failed');
  return CHAT_MESSAGES.serverError;
}
