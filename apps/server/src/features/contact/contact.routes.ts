import { messageResponse } from '@cohort/shared/accounts';
import { contactBody, newsletterBody } from '@cohort/shared/contact';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { contactMessages, newsletterSubscribers } from '../../db/schema.ts';
import { currentUser } from '../../http/session.ts';

export const contactRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['contact'];

    app.post(
      '/api/contact',
      { schema: { tags, body: contactBody, response: { 201: messageResponse } } },
      async (request, reply) => {
        const user = await currentUser(ctx, request);
        await ctx.db
          .insert(contactMessages)
          .values({ ...request.body, userId: user?.id ?? null, createdAt: ctx.now() });
        return reply.status(201).send({ message: 'Thanks! Your message has been sent.' });
      },
    );

    // Idempotent: subscribing twice is the same as once (and does not reveal who subscribed).
    app.post(
      '/api/newsletter',
      { schema: { tags, body: newsletterBody, response: { 201: messageResponse } } },
      async (request, reply) => {
        await ctx.db
          .insert(newsletterSubscribers)
          .values({ email: request.body.email })
          .onConflictDoNothing();
        return reply.status(201).send({ message: 'You are subscribed.' });
      },
    );
  };
