import { messageResponse } from '@cohort/shared/accounts';
import {
  CONTACT_MESSAGES,
  CONTACT_PER_HOUR,
  contactBody,
  NEWSLETTER_PER_HOUR,
  newsletterBody,
} from '@cohort/shared/contact';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireRateLimit } from '../../http/rate-limit.ts';
import { currentUser } from '../../http/session.ts';

const HOUR_MS = 60 * 60 * 1000;

import { storeContactMessage, subscribeToNewsletter } from './contact.service.ts';

export const contactRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['contact'];

    app.post(
      '/api/contact',
      { schema: { tags, body: contactBody, response: { 201: messageResponse } } },
      async (request, reply) => {
        const user = await currentUser(ctx, request);
        // Per client address: the form is public, so one script must not fill the table.
        await requireRateLimit(ctx, reply, {
          key: `contact:${request.ip}`,
          limit: CONTACT_PER_HOUR,
          windowMs: HOUR_MS,
          message: CONTACT_MESSAGES.tooOften,
        });
        await storeContactMessage(ctx, request.body, user?.id ?? null);
        return reply.status(201).send({ message: 'Thanks! Your message has been sent.' });
      },
    );

    app.post(
      '/api/newsletter',
      { schema: { tags, body: newsletterBody, response: { 201: messageResponse } } },
      async (request, reply) => {
        await requireRateLimit(ctx, reply, {
          key: `newsletter:${request.ip}`,
          limit: NEWSLETTER_PER_HOUR,
          windowMs: HOUR_MS,
          message: CONTACT_MESSAGES.tooOften,
        });
        await subscribeToNewsletter(ctx, request.body.email);
        return reply.status(201).send({ message: 'You are subscribed.' });
      },
    );
  };
