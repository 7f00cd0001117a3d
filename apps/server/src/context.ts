import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { EventBus } from './events/event-bus.ts';
import type { Metrics } from './http/metrics.ts';

export type { MessageCreated, NewUser } from './events/event-bus.ts';

import type { MessageCreated } from './events/event-bus.ts';

/** What every feature receives: configuration, the database and the clock (injected so tests control time). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /**
   * The app's typed event bus (events/event-bus.ts): features publish committed changes on it and
   * subscribe to each other's, unsubscribing on app close.
   */
  bus: EventBus;
  /**
   * The event outbox drainer (events/event-outbox.ts): `deliver` publishes the row a commit just
   * queued (notifications of a message), so a crash between commit and publish loses nothing.
   */
  outbox: { deliver(name: 'messageCreated', event: MessageCreated, queued: boolean): Promise<void> };
  /** The mail outbox drainer: `wake()` after a commit that queued mail sends it now, not at the next poll. */
  mail: { wake(): void };
  /** Prometheus instruments (http/metrics.ts); no-ops unless METRICS_TOKEN is set. */
  metrics: Metrics;
}
