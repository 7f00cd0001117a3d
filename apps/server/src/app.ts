import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { accountsRoutes } from './features/accounts/accounts.routes.ts';
import { callsRoutes } from './features/calls/calls.routes.ts';
import { AdHocRooms } from './features/calls/calls.service.ts';
import { registerMeshNamespace, registerVideoNamespace } from './features/calls/calls.socket.ts';
import { chatRoutes } from './features/chat/chat.routes.ts';
import { registerChatNamespace } from './features/chat/chat.socket.ts';
import { contactRoutes } from './features/contact/contact.routes.ts';
import { directRoutes } from './features/direct/direct.routes.ts';
import { registerDirectNamespace } from './features/direct/direct.socket.ts';
import { tasksRoutes } from './features/tasks/tasks.routes.ts';
import { registerTasksNamespace } from './features/tasks/tasks.socket.ts';
import { workspacesRoutes } from './features/workspaces/workspaces.routes.ts';
import { acceptInvitations } from './features/workspaces/workspaces.service.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerOriginGuard } from './http/origin.ts';
import { systemRoutes } from './http/system.routes.ts';
import { defaultRealtimeOptions, type RealtimeOptions } from './realtime/options.ts';
import { watchSessions } from './realtime/session-watch.ts';
import {
  attachAdapter,
  authenticateSocket,
  createSocketServer,
  dropConnections,
} from './realtime/socket-server.ts';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** Real-time timings (typing, flood guard, session checks); defaults in realtime/options.ts. */
  realtime?: Partial<RealtimeOptions>;
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the whole server (HTTP API, Socket.IO, SPA) from injected parts; tests build it too. */
export async function buildApp(opts: BuildAppOptions) {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON only: a text/plain body (what a cross-site HTML form can send) gets 415.
  app.removeContentTypeParser('text/plain');

  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    now: opts.now ?? (() => new Date()),
    log: app.log,
    onUserCreated: [],
  };

  registerErrorHandler(app);
  // Only a deployment served over HTTPS may pin browsers to HTTPS; plain-HTTP LAN installs must keep working.
  const https = config.PUBLIC_URL?.startsWith('https:') === true;
  await app.register(fastifyHelmet, {
    hsts: https,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Google Identity Services loads its script, styles and popup frame from accounts.google.com.
        scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        frameSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://accounts.google.com/gsi/'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    // GIS popups need to talk back to the opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  await app.register(fastifyCookie);
  registerOriginGuard(app, config.PUBLIC_URL);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Cohort API', version: '1.0.0', description: 'The HTTP API of Cohort.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'cohort_session' },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(systemRoutes(ctx));
  await app.register(accountsRoutes(ctx));
  await app.register(contactRoutes(ctx));
  await app.register(workspacesRoutes(ctx));
  ctx.onUserCreated.push(acceptInvitations);

  const io = createSocketServer(ctx, app);
  const closeAdapter = await attachAdapter(ctx, io);
  io.use(authenticateSocket(ctx));
  const realtime = { ...defaultRealtimeOptions(), ...opts.realtime };
  const chat = registerChatNamespace(ctx, io, realtime);
  registerDirectNamespace(ctx, io, realtime);
  const adHocRooms = new AdHocRooms(ctx.now);
  registerVideoNamespace(ctx, io, realtime);
  const mesh = registerMeshNamespace(ctx, io, realtime, adHocRooms);
  const stopSessionWatch = watchSessions(ctx, io, realtime);
  await app.register(chatRoutes(ctx, chat));
  await app.register(directRoutes(ctx));
  await app.register(callsRoutes(ctx, adHocRooms));
  await app.register(tasksRoutes(ctx, registerTasksNamespace(ctx, io)));

  const webDist = resolve(config.WEB_DIST ?? defaultWebDist);
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  }
  // Client routes (history API) all load the SPA; unknown API paths stay JSON 404s.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (request.method !== 'GET' || path.startsWith('/api/') || path.startsWith('/socket.io')) {
      return reply.status(404).send({ message: 'Not found' });
    }
    if (!hasWeb) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  // Open websockets would keep the HTTP server from closing: drop them first.
  app.addHook('preClose', async () => {
    stopSessionWatch();
    chat.close();
    mesh.close();
    dropConnections(io);
  });
  app.addHook('onClose', async () => {
    await io.close();
    await closeAdapter();
  });

  return { app, io, ctx, realtime };
}

export type CohortApp = Awaited<ReturnType<typeof buildApp>>;
