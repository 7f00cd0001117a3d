import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.ts';

export const systemRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['system'];
    app.get('/healthz', { schema: { tags } }, async () => ({ status: 'ok' }));

    app.get('/readyz', { schema: { tags } }, async (_request, reply) => {
      try {
        await ctx.database.ping();
        return { status: 'ready', database: ctx.database.kind };
      } catch (err) {
        ctx.log.warn({ err }, 'database not reachable');
        return reply.status(503).send({ status: 'unavailable', database: ctx.database.kind });
      }
    });

    // What the browser needs to know about this server's optional integrations.
    app.get(
      '/api/config',
      { schema: { tags, response: { 200: z.object({ googleClientId: z.string().nullable() }) } } },
      async () => ({ googleClientId: ctx.config.GOOGLE_CLIENT_ID ?? null }),
    );

    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  };
