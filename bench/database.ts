// What the benches that call the server's services directly share (bench/search.ts,
// bench/message-store.ts): a fresh database on either engine with Cohort's migrations, an AppContext
// around it, and a vocabulary to write realistic messages with.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { EventBus } from '../apps/server/src/events/event-bus.ts';
import { Metrics } from '../apps/server/src/http/metrics.ts';

/**
 * A migrated database of its own: on PostgreSQL a database created on `serverUrl`'s server (dropped
 * by `cleanup`), on PGlite a temporary data directory (removed by `cleanup`).
 */
export async function openBenchDatabase(
  engine: 'postgres' | 'pglite',
  serverUrl: string,
  prefix: string,
): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  if (engine === 'postgres') {
    const name = `${prefix}_${process.pid}_${Date.now()}`;
    const admin = async (text: string) => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(text);
      } finally {
        await c.end();
      }
    };
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    return {
      database,
      cleanup: async () => {
        await database.close();
        await admin(`drop database if exists ${name} with (force)`);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const database = await openDatabase({ dataDir: dir });
  return {
    database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the services need of the app, with nothing listening for its events. */
export function benchContext(database: Database): AppContext {
  return {
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    database,
    db: database.db,
    now: () => new Date(),
    log: console as unknown as AppContext['log'],
    bus: new EventBus(console as unknown as AppContext['log']),
    outbox: { deliver: async () => {} },
    mail: { wake: () => {} },
    metrics: new Metrics(undefined),
  } satisfies AppContext;
}

/** 5,000 pronounceable words; message words are drawn with probability ~ 1/rank (Zipf-like). */
export function vocabulary(): string[] {
  const common =
    'the to and a of we it is in for on that this deploy release bug fix review meeting today tomorrow team build test please thanks update issue merge branch customer design api server client data'.split(
      ' ',
    );
  const on = ['b', 'c', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'st', 'tr'];
  const nu = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
  const words = new Set(common);
  let seed = 42;
  const rnd = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  while (words.size < 5000) {
    const syllables = 2 + Math.floor(rnd() * 2);
    let w = '';
    for (let i = 0; i < syllables; i++) {
      w += (on[Math.floor(rnd() * on.length)] ?? '') + (nu[Math.floor(rnd() * nu.length)] ?? '');
    }
    words.add(w);
  }
  return [...words];
}
