import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { type BuildAppOptions, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, type Db, openDatabase } from '../src/db/client.ts';
import { eventOutbox, mailOutbox } from '../src/db/schema.ts';

/**
 * One database per test file: PGlite in memory by default, or a fresh database on the PostgreSQL
 * server named by TEST_DATABASE_URL (the `postgres` Vitest project sets COHORT_TEST_DB=postgres).
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (process.env.COHORT_TEST_DB !== 'postgres' || !serverUrl) {
    return openDatabase({ dataDir: 'memory://' });
  }
  const name = `cohort_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface TestApp extends Awaited<ReturnType<typeof buildApp>> {
  database: Database;
  /** Moves the injected clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: { env?: Record<string, string>; listen?: boolean } & Partial<BuildAppOptions> = {},
): Promise<TestApp> {
  // Mail without SMTP_URL is written under DATA_DIR/outbox: a private folder, not ./data of the checkout.
  const ownDataDir = opts.env?.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'cohort-test-'));
  const config: Config = loadConfig({
    LOG_LEVEL: 'silent',
    // Suites create many workspaces per person; the invitation budget has its own test.
    INVITATIONS_PER_HOUR: '100000',
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ...opts.env,
  });
  const database = await openTestDatabase();
  let offset = 0;
  const built = await buildApp({
    config,
    database,
    ...(opts.logStream ? { logStream: opts.logStream } : { logger: false as const }),
    now: () => new Date(Date.now() + offset),
    ...(opts.summarizer ? { summarizer: opts.summarizer } : {}),
    // Suites seed many messages per user; the flood tests set the real per-user budget back.
    realtime: { sendRateLimit: 10_000, ...opts.realtime },
    ...(opts.mail ? { mail: opts.mail } : {}),
    ...(opts.outbox ? { outbox: opts.outbox } : {}),
  });
  if (opts.listen) await built.app.listen({ port: 0, host: '127.0.0.1' });
  else await built.app.ready();
  return {
    ...built,
    database,
    advance: (ms) => {
      offset += ms;
    },
    close: async () => {
      await built.app.close();
      await database.close();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * No event or mail is left to deliver, so nothing else of the app's runs statements: tests that
 * count a use case's statements wait for this first (`await expect.poll(() => nothingToDeliver(db)).toBe(true)`).
 */
export async function nothingToDeliver(db: Db): Promise<boolean> {
  const [event] = await db.select({ id: eventOutbox.id }).from(eventOutbox).limit(1);
  const [mail] = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'))
    .limit(1);
  return !event && !mail;
}
