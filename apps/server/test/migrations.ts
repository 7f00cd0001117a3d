import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migrationsFolder } from '../src/paths.ts';

/** A bare database for a migration test: PGlite, or a fresh PostgreSQL database in the postgres project. */
export interface MigrationRunner {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

export async function openMigrationRunner(): Promise<MigrationRunner> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (process.env.COHORT_TEST_DB === 'postgres' && serverUrl) {
    const name = `cohort_mig_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString() });
    return {
      query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
      migrate: (folder) => migratePg(drizzlePg(pool) as never, { migrationsFolder: folder }),
      close: async () => {
        await pool.end();
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const client = await PGlite.create('memory://');
  return {
    query: async (text, params) => (await client.query(text, params as unknown[])).rows as never,
    migrate: (folder) => migrate(drizzle({ client }) as never, { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

/**
 * A copy of the committed migrations as they were up to `last` (its index in the journal), to build
 * a database with data in it before the migration under test. Remove it with `rmSync(…, {recursive})`.
 */
export function migrationsUpTo(last: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'cohort-mig-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: Array<{ idx: number; tag: string }>;
  };
  const later = new Set(journal.entries.filter((e) => e.idx > last).map((e) => `${e.tag}.sql`));
  for (const file of readdirSync(folder)) if (later.has(file)) rmSync(join(folder, file));
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/**
 * What every migration test sets up: a bare database and the migrations up to `last` (applied by the
 * test, before it adds its data), both removed after the file.
 */
export function migrationTestDatabase(last: number): { db: MigrationRunner; before: string } {
  const state = {} as { db: MigrationRunner; before: string };
  beforeAll(async () => {
    state.before = migrationsUpTo(last);
    state.db = await openMigrationRunner();
  }, 60_000);
  afterAll(async () => {
    await state.db?.close();
    if (state.before) rmSync(state.before, { recursive: true, force: true });
  });
  return state;
}

/** The id of the row an `insert … returning id` made. */
export async function insertedId(db: MigrationRunner, text: string, params: unknown[]): Promise<string> {
  return (await db.query<{ id: string }>(text, params))[0]?.id as string;
}

/** A user row with just what the schema requires. */
export function insertUser(db: MigrationRunner, email: string): Promise<string> {
  return insertedId(
    db,
    `insert into users (email, password_hash, first_name, last_name) values ($1, 'x', 'A', 'B') returning id`,
    [email],
  );
}
