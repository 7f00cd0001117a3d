import { changeEmailBody, EMAIL_MESSAGES, linkTokenBody, messageResponse } from '@cohort/shared/accounts';
import { apiError } from '@cohort/shared/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { confirmEmailChange, requestEmailChange, resendVerification, verifyEmail } from './email.service.ts';

const errors = { 400: apiError, 401: apiError, 409: apiError, 429: apiError };

/** Verified addresses and changing one's address (docs/accounts.md). */
export const emailRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['accounts'];

    // Public: the link may be opened in a browser that is not signed in; the token is the proof.
    app.post(
      '/api/account/verify-email',
      {
        schema: {
          tags,
          summary: 'Verify the address a verification link was sent to',
          security: [],
          body: linkTokenBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await verifyEmail(ctx, request.body.token);
        return { message: EMAIL_MESSAGES.verified };
      },
    );

    app.post(
      '/api/account/verification/resend',
      {
        schema: {
          tags,
          summary: 'Send the verification link again (signed in, not verified yet; rate-limited)',
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        const { waitMs } = await resendVerification(ctx, user);
        if (waitMs !== null) {
          reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
          throw new HttpError(429, EMAIL_MESSAGES.resendLimited);
        }
        return { message: EMAIL_MESSAGES.verificationSent };
      },
    );

    app.post(
      '/api/account/email',
      {
        schema: {
          tags,
          summary: 'Ask to change my e-mail address: a confirmation link goes to the new address',
          body: changeEmailBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        await requestEmailChange(ctx, user, { ...request.body, ip: request.ip });
        return { message: EMAIL_MESSAGES.changeRequested };
      },
    );

    // Public like verify-email: the new address's inbox may be read on another device.
    app.post(
      '/api/account/email/confirm',
      {
        schema: {
          tags,
          summary: 'Confirm a new e-mail address with the link sent to it',
          security: [],
          body: linkTokenBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await confirmEmailChange(ctx, request.body.token);
        return { message: EMAIL_MESSAGES.changeConfirmed };
      },
    );
  };
