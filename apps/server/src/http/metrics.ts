import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Server } from 'socket.io';
import type { Database, PoolStats } from '../db/client.ts';
import { notFound, unauthorized } from './errors.ts';

/**
 * Prometheus metrics (`GET /metrics`), on only when METRICS_TOKEN is set. One registry per app (tests
 * build many apps in one process), holding prom-client's default process metrics (CPU, memory,
 * event-loop lag, GC) and the instruments below. Switched off, every method is a no-op and nothing
 * is timed.
 */

/** A label for requests no route matched (404s, the web app's history fallback): never the raw URL. */
export const UNMATCHED_ROUTE = '(unmatched)';
/** Commit times of sent messages not announced yet; a message never announced is forgotten past this. */
const PENDING_MAX = 10_000;

/** Which conversation a message belongs to. */
type MessageKind = 'channel' | 'direct';

const secondsSince = (start: number) => (performance.now() - start) / 1000;

export class Metrics {
  readonly registry: Registry | undefined;
  private readonly instruments: ReturnType<typeof createInstruments> | undefined;
  private readonly committedAt = new Map<string, number>();
  private readonly stops: (() => void)[] = [];

  constructor(readonly token: string | undefined) {
    if (token === undefined) return;
    this.registry = new Registry();
    collectDefaultMetrics({ register: this.registry });
    this.instruments = createInstruments(this.registry);
  }

  get enabled() {
    return this.instruments !== undefined;
  }

  /** Fastify's onResponse: one observation per request, labelled with its route pattern. */
  observeRequest(request: FastifyRequest, reply: FastifyReply) {
    this.instruments?.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  }

  /** The messaging core committed a new message (a resend of a clientId is not counted). */
  messageSent(kind: MessageKind, messageId: string) {
    if (!this.instruments) return;
    this.instruments.messagesSent.inc({ kind });
    if (this.committedAt.size >= PENDING_MAX) this.committedAt.clear();
    this.committedAt.set(messageId, performance.now());
  }

  /** A new message was emitted to its conversation's room (one call per emit). */
  messageDelivered(kind: MessageKind, messageId: string) {
    if (!this.instruments) return;
    this.instruments.messagesDelivered.inc({ kind });
    const committed = this.committedAt.get(messageId);
    if (committed === undefined) return;
    this.committedAt.delete(messageId);
    this.instruments.deliveryLatency.observe({ kind }, secondsSince(committed));
  }

  /** Connections per namespace, the database's query time and (PostgreSQL) its pool, from now on. */
  watch(io: Server, database: Database) {
    const registry = this.registry;
    const instruments = this.instruments;
    if (!registry || !instruments) return;
    const registers = [registry];
    new Gauge({
      name: 'cohort_socketio_connections',
      help: 'Socket.IO connections open on this node, by namespace.',
      labelNames: ['namespace'] as const,
      registers,
      collect() {
        for (const [name, nsp] of io._nsps) this.set({ namespace: name }, nsp.sockets.size);
      },
    });
    const { poolStats } = database;
    // Only PostgreSQL has a pool (PGlite is one connection inside the process).
    if (poolStats) {
      const pool = (name: string, help: string, read: (s: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(poolStats()));
          },
        });
      pool(
        'cohort_db_pool_connections',
        'Connections the PostgreSQL pool holds, idle or in use.',
        (s) => s.total,
      );
      pool('cohort_db_pool_idle_connections', 'Connections idle in the PostgreSQL pool.', (s) => s.idle);
      pool(
        'cohort_db_pool_waiting_requests',
        'Checkouts waiting for a PostgreSQL pool connection.',
        (s) => s.waiting,
      );
    }
    this.stops.push(database.timeQueries((seconds) => instruments.dbDuration.observe(seconds)));
  }

  /** Stops timing queries (the app closes; the database may outlive it). */
  stop() {
    for (const stop of this.stops.splice(0)) stop();
    this.committedAt.clear();
  }

  /** Whether `authorization` is `Bearer <METRICS_TOKEN>`, compared in constant time. */
  authorized(authorization: string | undefined) {
    if (this.token === undefined) return false;
    const given = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
    const digest = (s: string) => createHash('sha256').update(s).digest();
    return timingSafeEqual(digest(given), digest(this.token));
  }
}

function createInstruments(registry: Registry) {
  const registers = [registry];
  return {
    httpDuration: new Histogram({
      name: 'cohort_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code: time to the response (_count counts the requests).',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    messagesSent: new Counter({
      name: 'cohort_messages_sent_total',
      help: 'New messages committed by this node, by conversation kind (a resent clientId is not counted).',
      labelNames: ['kind'] as const,
      registers,
    }),
    messagesDelivered: new Counter({
      name: 'cohort_messages_delivered_total',
      help:
        "New messages emitted to their conversation's room, by conversation kind: one per emit, not per " +
        "receiving socket (with the Redis adapter the other nodes' sockets are not known here).",
      labelNames: ['kind'] as const,
      registers,
    }),
    deliveryLatency: new Histogram({
      name: 'cohort_message_delivery_latency_seconds',
      help: "From a new message's commit to its emit to the conversation's room, on the node that committed it.",
      labelNames: ['kind'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    }),
    dbDuration: new Histogram({
      name: 'cohort_db_query_duration_seconds',
      help:
        'Database queries from the driver call to the answer (PostgreSQL: on a pool connection; PGlite: ' +
        'waiting for its one connection included).',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
  };
}

/**
 * `GET /metrics`: 404 (like any unknown path) unless METRICS_TOKEN is set, then 401 without
 * `Authorization: Bearer <METRICS_TOKEN>`. Not rate-limited; the header is redacted from the log.
 */
export const metricsRoutes =
  (metrics: Metrics): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const registry = metrics.registry;
      if (!registry) throw notFound();
      if (!metrics.authorized(request.headers.authorization))
        throw unauthorized('A valid metrics token is required');
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  };
