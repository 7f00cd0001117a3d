import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from '../paths.ts';
import { ensureTemplate, loadTemplate, unpackTemplate } from './pglite-template.ts';
import { type PGliteThread, startPGliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The rows of `db.execute(sql…)` (both drivers answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** A transaction handle of a `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A PostgreSQL pool's connections: held (idle or in use), idle, and checkouts waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How a new embedded cluster was made: unpacked from the pre-migrated template, or initdb. */
  created?: 'template' | 'initdb';
  /**
   * Settles when the committed migrations are applied. `openDatabase` waits for it unless asked
   * for `early`; until then every query waits for it too.
   */
  migrated: Promise<void>;
  /** Cheap round trip, used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Calls `observe` with each query's duration in seconds until the returned function is called (metrics). */
  timeQueries(observe: (seconds: number) => void): () => void;
  /** PostgreSQL only. */
  poolStats?: () => PoolStats;
}

/**
 * The one place queries are timed, for both drivers: every query of the app goes through a pool
 * client's `query` (PostgreSQL; `pool.query` uses one too) or PGlite's `query` and its transactions'.
 * Nothing is measured while nobody observes.
 */
class QueryTimer {
  private readonly observers = new Set<(seconds: number) => void>();

  subscribe = (observe: (seconds: number) => void) => {
    this.observers.add(observe);
    return () => void this.observers.delete(observe);
  };

  /** Replaces `target[method]` (a promise- or callback-style query function) with a timed one. */
  wrap<T extends object>(target: T, method: keyof T & string) {
    const original = target[method] as unknown as (...args: unknown[]) => unknown;
    const observers = this.observers;
    const timed = function (this: unknown, ...args: unknown[]) {
      if (observers.size === 0) return original.apply(this, args);
      const start = performance.now();
      const done = () => {
        const seconds = (performance.now() - start) / 1000;
        for (const observe of observers) observe(seconds);
      };
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (...results: unknown[]) => {
          done();
          return callback(...results);
        };
        return original.apply(this, args);
      }
      const result = original.apply(this, args);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (value) => {
          done();
          return value;
        },
        (err: unknown) => {
          done();
          throw err;
        },
      );
    };
    (target as Record<string, unknown>)[method] = timed;
  }
}

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite in `dataDir` (or in memory for
 * `memory://`), and applies the committed migrations.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  onIdleError?: (err: Error) => void;
  /**
   * Embedded on disk: return while PGlite is still starting and the migrations still run (see
   * `migrated`), so the caller can build the app meanwhile (main.ts).
   */
  early?: boolean;
}): Promise<Database> {
  if (opts.databaseUrl) {
    // Idle connections are kept for minutes, not pg's 10 s: under bursty chat traffic the pool otherwise
    // closed and reopened connections all the time (21 → 3 → 17 within a run), and each new connection
    // costs PostgreSQL a backend start (docs/performance.md, "Cohort against ejabberd").
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 20, idleTimeoutMillis: 5 * 60_000 });
    // An idle client dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => opts.onIdleError?.(err));
    // A client checked out between two statements of a transaction emits 'error' on itself when the
    // connection drops, and no pool listener sees it: without this it would crash the process. The
    // transaction's next statement fails (a 503 to the caller) and the pool discards the client.
    pool.on('connect', (client) => client.on('error', (err) => opts.onIdleError?.(err)));
    const timer = new QueryTimer();
    pool.on('connect', (client) => timer.wrap(client, 'query'));
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    await withMigrationLock(pool, () => migratePg(db as never, { migrationsFolder }));
    return {
      db,
      kind: 'postgres',
      migrated: Promise.resolve(),
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
      timeQueries: timer.subscribe,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  const inMemory = opts.dataDir.startsWith('memory://');
  const dir = inMemory ? opts.dataDir : join(opts.dataDir, 'pglite');
  if (!inMemory) mkdirSync(opts.dataDir, { recursive: true });
  // A new cluster starts from the pre-migrated template when one was built (see pglite-template.ts).
  // On disk it is unpacked directly (much faster than PGlite's loadDataDir, which is kept for
  // memory:// and for a directory that already holds something).
  const fresh = inMemory || !existsSync(join(dir, 'PG_VERSION'));
  const unpacked = fresh && !inMemory && (await unpackTemplate(dir));
  const template = fresh && !unpacked ? loadTemplate() : undefined;
  // On disk, the database runs on its own thread (pglite-worker.ts): its statements then no longer
  // stall the event loop. In memory (tests) it stays in process.
  let client: PGlite;
  let migrated: Promise<void>;
  if (inMemory) {
    const { PGlite } = await import('@electric-sql/pglite');
    client = await PGlite.create(dir, template ? { loadDataDir: template } : {});
    migrated = migratePglite(drizzlePglite({ client, schema }) as never, { migrationsFolder });
  } else {
    const thread = startPGliteThread({
      dataDir: dir,
      ...(template ? { template: await template.arrayBuffer() } : {}),
    });
    // The migrator talks to the thread directly; everything else waits until it is done.
    migrated = migratePglite(drizzlePglite({ client: thread as unknown as PGlite, schema }) as never, {
      migrationsFolder,
    });
    client = afterMigrations(thread, migrated) as unknown as PGlite;
  }
  migrated.catch(() => {}); // awaited below or by the caller
  const timer = new QueryTimer();
  timer.wrap(client, 'query');
  // Drizzle runs a transaction's statements on the handle PGlite passes to the callback.
  const transaction = client.transaction.bind(client);
  client.transaction = (run) =>
    transaction((tx) => {
      timer.wrap(tx, 'query');
      return run(tx);
    });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  if (!opts.early || inMemory) await migrated;
  return {
    db,
    kind: 'pglite',
    migrated,
    ...(fresh ? { created: unpacked || template ? 'template' : 'initdb' } : {}),
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
    timeQueries: timer.subscribe,
  };
}

/** The thread's client, with every query and transaction held until `migrated` settles. */
function afterMigrations(thread: PGliteThread, migrated: Promise<void>): PGliteThread {
  return {
    query: async (...args) => {
      await migrated;
      return thread.query(...args);
    },
    transaction: async (run) => {
      await migrated;
      return thread.transaction(run);
    },
    close: () => thread.close(),
  };
}

// Drizzle's migrator takes no lock: nodes starting together on a fresh database would both try to
// create the same tables. A session-level advisory lock makes them take turns.
const MIGRATION_LOCK_KEY = 7_072_601;
async function withMigrationLock(pool: pg.Pool, migrate: () => Promise<void>) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
}

/** Builds the PGlite template for the current migrations (run by `npm run build` and the test setup). */
export function buildPgliteTemplate() {
  return ensureTemplate(async (client) => {
    await migratePglite(drizzlePglite({ client, schema }) as never, { migrationsFolder });
  });
}
