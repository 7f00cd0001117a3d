import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { PgliteStatistics } from './db/pglite-statistics.ts';
import { EventBus } from './events/event-bus.ts';
import { EventOutbox, type EventOutboxOptions } from './events/event-outbox.ts';
import { accountsRoutes } from './features/accounts/accounts.routes.ts';
import { emailRoutes } from './features/accounts/email.routes.ts';
import { passwordResetRoutes } from './features/accounts/password-reset.routes.ts';
import { sessionsRoutes } from './features/accounts/sessions.routes.ts';
import { loginTwoFactorRoutes, twoFactorRoutes } from './features/accounts/two-factor.routes.ts';
import { callsRoutes } from './features/calls/calls.routes.ts';
import { AdHocRooms } from './features/calls/calls.service.ts';
import { registerMeshNamespace, registerVideoNamespace } from './features/calls/calls.socket.ts';
import { SfuRooms } from './features/calls/janus.ts';
import { chatRoutes } from './features/chat/chat.routes.ts';
import { registerChatNamespace } from './features/chat/chat.socket.ts';
import { pinsRoutes } from './features/chat/pins.routes.ts';
import { contactRoutes } from './features/contact/contact.routes.ts';
import { directRoutes } from './features/direct/direct.routes.ts';
import { registerDirectNamespace } from './features/direct/direct.socket.ts';
import { filesRoutes } from './features/files/files.routes.ts';
import { startFileSweeper } from './features/files/files.sweeper.ts';
import { mailRoutes } from './features/mail/mail.routes.ts';
import { MailSender, type MailSenderOptions } from './features/mail/mail.sender.ts';
import { subscribeMail } from './features/mail/mail.subscriptions.ts';
import { notificationsRoutes } from './features/notifications/notifications.routes.ts';
import { registerNotificationsNamespace } from './features/notifications/notifications.socket.ts';
import { peopleRoutes } from './features/people/people.routes.ts';
import { presenceRoutes } from './features/presence/presence.routes.ts';
import { registerPresenceNamespace } from './features/presence/presence.socket.ts';
import { createGithubClient } from './features/projects/github.client.ts';
import { projectsRoutes } from './features/projects/projects.routes.ts';
import { startProjectSync } from './features/projects/projects.sync.ts';
import { githubWebhookRoutes } from './features/projects/projects.webhook.ts';
import { readsRoutes } from './features/reads/reads.routes.ts';
import { ReadsService } from './features/reads/reads.service.ts';
import { readsRealtime } from './features/reads/reads.socket.ts';
import { savedRealtime, savedRoutes } from './features/saved/saved.routes.ts';
import { searchRoutes } from './features/search/search.routes.ts';
import { createSummarizer, type Summarizer } from './features/summaries/summaries.engine.ts';
import { summariesRoutes } from './features/summaries/summaries.routes.ts';
import { SummariesService } from './features/summaries/summaries.service.ts';
import { switcherRoutes } from './features/switcher/switcher.routes.ts';
import { boardFiles } from './features/tasks/boards.files.ts';
import { boardsRoutes } from './features/tasks/boards.routes.ts';
import { taskListsRoutes } from './features/tasks/task-lists.routes.ts';
import { taskNotificationsRoutes } from './features/tasks/task-notifications.routes.ts';
import { endAssignmentsOnLeave } from './features/tasks/tasks.membership.ts';
import { tasksRoutes } from './features/tasks/tasks.routes.ts';
import { registerTasksNamespace } from './features/tasks/tasks.socket.ts';
import { workspacesRoutes } from './features/workspaces/workspaces.routes.ts';
import { registerErrorHandler } from './http/errors.ts';
import { logOptions } from './http/log-redaction.ts';
import { Metrics, metricsRoutes } from './http/metrics.ts';
import { registerOriginGuard } from './http/origin.ts';
import { registerStorableInputGuard } from './http/storable-input.ts';
import { systemRoutes } from './http/system.routes.ts';
import { compressHtml, createWebShell } from './http/web-shell.ts';
import { defaultWebDist } from './paths.ts';
import { defaultRealtimeOptions, type RealtimeOptions } from './realtime/options.ts';
import { watchSessions } from './realtime/session-watch.ts';
import {
  attachAdapter,
  authenticateSocket,
  createSocketServer,
  dropConnections,
} from './realtime/socket-server.ts';

const HOST_HEADER = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;
/** `ws://host wss://host` for the host this page was served from (a malformed Host adds nothing). */
function sameHostSockets(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return HOST_HEADER.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

/** The context of each built app, for test factories that seed state the way an operator would. */
export const appContexts = new WeakMap<FastifyInstance, AppContext>();

export interface BuildAppOptions {
  config: Config;
  database: Database;
  now?: () => Date;
  /** `false` silences the log; otherwise pino at LOG_LEVEL with the redaction of http/log-redaction.ts. */
  logger?: false;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** Real-time timings (typing, flood guard, session checks); defaults in realtime/options.ts. */
  realtime?: Partial<RealtimeOptions>;
  /** Replaces the summary engine chosen from the configuration (tests count its calls). */
  summarizer?: Summarizer;
  /** Outbox polling (tests turn it off and drain by hand). */
  mail?: MailSenderOptions;
  /** Event outbox polling for rows orphaned by a dead node (tests turn it off and drain by hand). */
  outbox?: EventOutboxOptions;
}

/** Builds the whole server (HTTP API, Socket.IO, SPA) from injected parts; tests build it too. */
export async function buildApp(opts: BuildAppOptions) {
  const { config, database } = opts;
  const logger: FastifyServerOptions['logger'] =
    opts.logger === false
      ? false
      : { level: config.LOG_LEVEL, ...logOptions, ...(opts.logStream ? { stream: opts.logStream } : {}) };
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  // Every route as registered (the security suites enumerate them, so new routes are covered).
  const routes: { method: string; url: string; bodyLimit: number }[] = [];
  app.addHook('onRoute', (route) => {
    const bodyLimit = route.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, bodyLimit });
  });
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
    bus: new EventBus(app.log),
    // Replaced by the event outbox drainer just below (it needs the finished context).
    outbox: { deliver: async () => {} },
    // Replaced by the outbox drainer just below (it needs the finished context).
    mail: { wake: () => {} },
    metrics: new Metrics(config.METRICS_TOKEN),
  };
  const { metrics } = ctx;
  // Every answered request, by route pattern (never the raw URL) and status.
  if (metrics.enabled)
    app.addHook('onResponse', async (request, reply) => metrics.observeRequest(request, reply));
  const mail = new MailSender(ctx, opts.mail);
  ctx.mail = mail;
  // Features publish what happened on the bus; the mail feature queues the mails it causes.
  const unsubscribeMail = subscribeMail(ctx);
  const outbox = new EventOutbox(ctx, opts.outbox);
  ctx.outbox = outbox;
  // PGlite runs no autovacuum: the server vacuums it and gathers its planner statistics itself.
  const statistics = ctx.database.kind === 'pglite' ? new PgliteStatistics(ctx.log, ctx.db) : undefined;
  // Mail and events queued while the server was down (or by a node that died mid-send) go out on start.
  app.addHook('onReady', async () => {
    mail.start();
    outbox.start();
    statistics?.start();
  });
  // Before the database closes: a send in flight records its outcome.
  app.addHook('onClose', async () => {
    unsubscribeMail();
    await mail.stop();
    await outbox.stop();
    await statistics?.stop();
  });

  registerErrorHandler(app);
  registerStorableInputGuard(app);
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
        // Websockets only to this server ('self' covers them in CSP 3; the explicit origin is for older
        // browsers), never to any host as a bare `ws:`/`wss:` would allow.
        // and to Janus, when meetings run on it (JANUS_URL, issue 23).
        connectSrc: [
          "'self'",
          sameHostSockets,
          'https://accounts.google.com/gsi/',
          ...(config.JANUS_URL ? [new URL(config.JANUS_URL).origin] : []),
        ],
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
  await app.register(metricsRoutes(metrics));
  await app.register(accountsRoutes(ctx));
  await app.register(sessionsRoutes(ctx));
  await app.register(twoFactorRoutes(ctx));
  await app.register(loginTwoFactorRoutes(ctx));
  await app.register(emailRoutes(ctx));
  await app.register(passwordResetRoutes(ctx));
  await app.register(mailRoutes(ctx));
  await app.register(contactRoutes(ctx));
  await app.register(workspacesRoutes(ctx));

  const io = createSocketServer(ctx, app);
  const closeAdapter = await attachAdapter(ctx, io);
  io.use(authenticateSocket(ctx));
  metrics.watch(io, database);
  const realtime: RealtimeOptions = {
    ...defaultRealtimeOptions(),
    presenceGraceMs: config.PRESENCE_GRACE_MS,
    presenceNodeTimeoutMs: config.PRESENCE_NODE_TIMEOUT_MS,
    ringTimeoutMs: config.CALL_RING_TIMEOUT_MS,
    ...opts.realtime,
  };
  const chat = registerChatNamespace(ctx, io, realtime);
  const direct = registerDirectNamespace(ctx, io, realtime);
  const adHocRooms = new AdHocRooms(ctx.now);
  const video = registerVideoNamespace(ctx, io, realtime);
  const mesh = registerMeshNamespace(ctx, io, realtime, adHocRooms, SfuRooms.fromConfig(config));
  const presence = await registerPresenceNamespace(ctx, io, realtime);
  const stopSessionWatch = watchSessions(ctx, io, realtime);
  await app.register(chatRoutes(ctx, chat));
  await app.register(pinsRoutes(ctx, chat));
  await app.register(directRoutes(ctx, direct));
  await app.register(savedRoutes(ctx, savedRealtime(chat.nsp, direct.nsp)));
  const reads = new ReadsService(ctx, readsRealtime(chat.nsp, direct.nsp));
  const stopReadCleanup = reads.watchDeletions();
  await app.register(readsRoutes(ctx, reads));
  await app.register(peopleRoutes(ctx));
  await app.register(filesRoutes(ctx, boardFiles(ctx)));
  await app.register(notificationsRoutes(ctx, registerNotificationsNamespace(ctx, io)));
  await app.register(presenceRoutes(ctx, presence));
  await app.register(callsRoutes(ctx, adHocRooms));
  const tasksRealtime = registerTasksNamespace(ctx, io);
  const stopTaskAssignmentWatch = endAssignmentsOnLeave(ctx, tasksRealtime);
  await app.register(taskListsRoutes(ctx, tasksRealtime));
  await app.register(tasksRoutes(ctx, tasksRealtime));
  await app.register(boardsRoutes(ctx, tasksRealtime));
  await app.register(taskNotificationsRoutes(ctx, tasksRealtime));
  const summarizer = opts.summarizer ?? createSummarizer(config, app.log);
  await app.register(summariesRoutes(ctx, new SummariesService(ctx, summarizer)));
  const github = createGithubClient({
    baseUrl: config.GITHUB_API_URL,
    webUrl: config.GITHUB_WEB_URL,
    token: config.GITHUB_TOKEN,
  });
  await app.register(projectsRoutes(ctx, github));
  await app.register(githubWebhookRoutes(ctx));
  await app.register(searchRoutes(ctx));
  await app.register(switcherRoutes(ctx));
  const projectSync = startProjectSync(ctx, github);
  const fileSweeper = startFileSweeper(ctx);

  const webDist = resolve(config.WEB_DIST ?? defaultWebDist);
  const hasWeb = existsSync(join(webDist, 'index.html'));
  const webShell = hasWeb ? createWebShell(webDist) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text asset; send those to browsers that accept them.
      preCompressed: true,
      setHeaders(reply, path) {
        // Vite names assets by content hash: a changed file gets a new name, so cache them for good.
        if (path.startsWith(join(webDist, 'assets'))) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (path.endsWith('.html')) {
          // The page names the current assets: always revalidate it.
          reply.header('cache-control', 'no-cache');
        }
      },
    });
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
    const page = compressHtml(webShell?.htmlFor(path) ?? '', request.headers['accept-encoding']);
    if (page.encoding) reply.header('content-encoding', page.encoding);
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(page.body);
  });

  // Open websockets would keep the HTTP server from closing: drop them first.
  app.addHook('preClose', async () => {
    projectSync.stop();
    stopSessionWatch();
    stopReadCleanup();
    stopTaskAssignmentWatch();
    chat.close();
    video.close();
    mesh.close();
    // Before the connections drop: their disconnects are not departures (clients reconnect elsewhere).
    await presence.close();
    dropConnections(io);
  });
  app.addHook('onClose', async () => {
    await fileSweeper.stop();
    await io.close();
    await closeAdapter();
    metrics.stop();
    // Subscribers unsubscribe as they close; this drops any left, so a closed app hears nothing.
    ctx.bus.clear();
  });

  appContexts.set(app, ctx);
  return { app, io, ctx, realtime, projectSync, fileSweeper, routes, mail, outbox, statistics };
}

export type CohortApp = Awaited<ReturnType<typeof buildApp>>;
