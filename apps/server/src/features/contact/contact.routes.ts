import { messageResponse } from '@cohort/shared/accounts';
import { contactBody, newsletterBody } from '@cohort/shared/contact';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/session.ts';
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
        await storeContactMessage(ctx, request.body, user?.id ?? null);
        return reply.status(201).send({ message: 'Thanks! Your message has been sent.' });
      },
    );

    app.post(
      '/api/newsletter',
      { schema: { tags, body: newsletterBody, response: { 201: messageResponse } } },
      async (request, reply) => {
        await subscribeToNewsletter(ctx, request.body.email);
        return reply.status(201).send({ message: 'You are subscribed.' });
      },
    );
  };
