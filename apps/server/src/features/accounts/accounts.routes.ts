import {
  ACCOUNT_MESSAGES,
  changePasswordBody,
  googleCredentialBody,
  loginBody,
  loginResponse,
  meResponse,
  messageResponse,
  signupBody,
  tokenResponse,
} from '@cohort/shared/accounts';
import { SECURITY_MESSAGES } from '@cohort/shared/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import {
  clearSessionCookie,
  currentUser,
  deviceOf,
  requireUser,
  revokeSession,
  setSessionCookie,
} from '../../http/session.ts';
import { presentMe } from './accounts.presenter.ts';
import { changePassword, login, signInWithGoogle, signup } from './accounts.service.ts';
import { verifyGoogleCredential } from './google.ts';

export const accountsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['accounts'];

    app.post(
      '/api/signup',
      { schema: { tags, body: signupBody, response: { 201: messageResponse } } },
      async (request, reply) => {
        await signup(ctx, request.body);
        return reply.status(201).send({ message: ACCOUNT_MESSAGES.signupSuccess });
      },
    );

    app.post(
      '/api/login',
      { schema: { tags, body: loginBody, response: { 200: loginResponse } } },
      async (request, reply) => {
        const remember = request.body.remember === true;
        const outcome = await login(ctx, {
          ...request.body,
          ip: request.ip,
          remember,
          device: deviceOf(request),
        });
        // Two-factor sign-in: no token and no cookie until the code step (two-factor.routes.ts).
        if ('challenge' in outcome) {
          const { challenge } = outcome;
          return { twoFactorRequired: true as const, challenge, message: SECURITY_MESSAGES.loginCodeNeeded };
        }
        setSessionCookie(ctx, request, reply, outcome.token, remember);
        return { token: outcome.token, message: ACCOUNT_MESSAGES.loginSuccess };
      },
    );

    for (const [path, message] of [
      ['/api/google-login', ACCOUNT_MESSAGES.googleLoginSuccess],
      ['/api/google-signup', ACCOUNT_MESSAGES.googleSignupSuccess],
    ] as const) {
      app.post(
        path,
        { schema: { tags, body: googleCredentialBody, response: { 200: tokenResponse } } },
        async (request, reply) => {
          const identity = await verifyGoogleCredential(ctx, request.body.credential);
          const remember = request.body.remember === true;
          const token = await signInWithGoogle(ctx, identity, remember, deviceOf(request));
          setSessionCookie(ctx, request, reply, token, remember);
          return { token, message };
        },
      );
    }

    app.get('/api/me', { schema: { tags, response: { 200: meResponse } } }, async (request) => {
      const user = await requireUser(ctx, request);
      return { user: presentMe(user) };
    });

    app.post(
      '/api/users/password',
      { schema: { tags, body: changePasswordBody, response: { 200: messageResponse } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        await changePassword(ctx, user, { ...request.body, ip: request.ip });
        return { message: ACCOUNT_MESSAGES.passwordChanged };
      },
    );

    app.post(
      '/api/logout',
      { schema: { tags, response: { 200: messageResponse } } },
      async (request, reply) => {
        const user = await currentUser(ctx, request);
        if (user) await revokeSession(ctx, user.sessionId);
        clearSessionCookie(reply);
        return { message: 'Logged out' };
      },
    );
  };
