import {
  EMAIL_MESSAGES,
  forgotPasswordBody,
  messageResponse,
  resetPasswordBody,
  resetPasswordResponse,
} from '@cohort/shared/accounts';
import { apiError } from '@cohort/shared/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { deviceOf, setSessionCookie } from '../../http/session.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';

const errors = { 400: apiError, 429: apiError };

/** "Forgot password?" and the reset link (docs/accounts.md). Both are public. */
export const passwordResetRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['accounts'];

    app.post(
      '/api/account/password/forgot',
      {
        schema: {
          tags,
          summary: 'Mail a password reset link (the same answer whether or not the account exists)',
          security: [],
          body: forgotPasswordBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await requestPasswordReset(ctx, request.body.email, request.ip);
        return { message: EMAIL_MESSAGES.resetRequested };
      },
    );

    app.post(
      '/api/account/password/reset',
      {
        schema: {
          tags,
          summary:
            'Set a new password with a reset link; ends every session, then signs in (unless 2FA is on)',
          security: [],
          body: resetPasswordBody,
          response: { 200: resetPasswordResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { token } = await resetPassword(ctx, {
          ...request.body,
          remember: false,
          device: deviceOf(request),
        });
        if (token === null) return { message: EMAIL_MESSAGES.resetDoneTwoFactor, twoFactorRequired: true };
        setSessionCookie(ctx, request, reply, token, false);
        return { token, message: EMAIL_MESSAGES.resetDone };
      },
    );
  };
