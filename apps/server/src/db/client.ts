import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from '../paths.ts';
import { ensureTemplate, loadTemplate, unpackTemplate } from './pglite-template.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The rows of `db.execute(sql…)` (both drivers answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** A transaction handle of a `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How a new embedded cluster was made: unpacked from the pre-migrated template, or initdb. */
  created?: 'template' | 'initdb';
  /** Cheap round trip, used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL when a URL is given, otherwise embedded PGlite in `dataDir` (or in memory for
 * `memory://`), and applies the committed migrations.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  onIdleError?: (err: Error) => void;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 20 });
    // An idle client dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => opts.onIdleError?.(err));
    // A client checked out between two statements of a transaction emits 'error' on itself when the
    // connection drops, and no pool listener sees it: without this it would crash the process. The
    // transaction's next statement fails (a 503 to the caller) and the pool discards the client.
    pool.on('connect', (client) => client.on('error', (err) => opts.onIdleError?.(err)));
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    await withMigrationLock(pool, () => migratePg(db as never, { migrationsFolder }));
    return {
      db,
      kind: 'postgres',
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  const inMemory = opts.dataDir.startsWith('memory://');
  const dir = inMemory ? opts.dataDir : join(opts.dataDir, 'pglite');
  if (!inMemory) mkdirSync(opts.dataDir, { recursive: true });
  // A new cluster starts from the pre-migrated template when one was built (see pglite-template.ts).
  // On disk it is unpacked directly (much faster than PGlite's loadDataDir, which is kept for
  // memory:// and for a directory that already holds something).
  const fresh = inMemory || !existsSync(join(dir, 'PG_VERSION'));
  const unpacked = fresh && !inMemory && unpackTemplate(dir);
  const template = fresh && !unpacked ? loadTemplate() : undefined;
  const client = await PGlite.create(dir, template ? { loadDataDir: template } : {});
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    ...(fresh ? { created: unpacked || template ? 'template' : 'initdb' } : {}),
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
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
