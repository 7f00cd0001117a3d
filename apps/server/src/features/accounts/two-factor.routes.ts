import {
  ACCOUNT_MESSAGES,
  loginTwoFactorBody,
  messageResponse,
  tokenResponse,
} from '@cohort/shared/accounts';
import { apiError } from '@cohort/shared/errors';
import {
  SECURITY_MESSAGES,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorEnableResponse,
  twoFactorSetupResponse,
  twoFactorStatus,
} from '@cohort/shared/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { deviceOf, requireUser, setSessionCookie } from '../../http/session.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
  redeemLoginChallenge,
  startSetup,
} from './two-factor.service.ts';

const errors = { 400: apiError, 401: apiError, 409: apiError, 429: apiError };

/** Profile → Security: turning two-factor sign-in (TOTP) on and off, for the signed-in user. */
export const twoFactorRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Authentication first: an anonymous request gets 401 before its body is validated.
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['two-factor'];

    app.get(
      '/api/2fa',
      { schema: { tags, response: { 200: twoFactorStatus, ...errors } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return getTwoFactorStatus(ctx, user);
      },
    );

    app.post(
      '/api/2fa/setup',
      { schema: { tags, response: { 200: twoFactorSetupResponse, ...errors } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        return startSetup(ctx, user);
      },
    );

    app.post(
      '/api/2fa/enable',
      { schema: { tags, body: twoFactorEnableBody, response: { 200: twoFactorEnableResponse, ...errors } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const recoveryCodes = await enableTwoFactor(ctx, user, request.body.code);
        return { message: SECURITY_MESSAGES.enabled, recoveryCodes };
      },
    );

    app.post(
      '/api/2fa/disable',
      { schema: { tags, body: twoFactorDisableBody, response: { 200: messageResponse, ...errors } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        await disableTwoFactor(ctx, user, { ...request.body, ip: request.ip });
        return { message: SECURITY_MESSAGES.disabled };
      },
    );
  };

/** The second step of a password sign-in with 2FA on: public, since no session exists yet. */
export const loginTwoFactorRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/login/two-factor',
      {
        schema: {
          tags: ['accounts'],
          body: loginTwoFactorBody,
          response: { 200: tokenResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { token, remember } = await redeemLoginChallenge(ctx, {
          ...request.body,
          ip: request.ip,
          device: deviceOf(request),
        });
        setSessionCookie(ctx, request, reply, token, remember);
        return { token, message: ACCOUNT_MESSAGES.loginSuccess };
      },
    );
  };
