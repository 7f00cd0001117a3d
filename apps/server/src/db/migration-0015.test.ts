import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Migration 0015 (channel management, issue 22) on a database with data in it: applied after 0014 to
 * workspaces with open and private channels and messages. PGlite, or a fresh PostgreSQL database in
 * the postgres project.
 */

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
let upTo14: string;

interface Runner {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function openRunner(): Promise<Runner> {
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

let db: Runner;
beforeAll(async () => {
  // The committed migrations as they were before channel management: 0000..0014.
  upTo14 = mkdtempSync(join(tmpdir(), 'cohort-mig-'));
  cpSync(migrationsFolder, upTo14, { recursive: true });
  rmSync(join(upTo14, '0015_channel_management.sql'));
  const journalPath = join(upTo14, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx <= 14);
  writeFileSync(journalPath, JSON.stringify(journal));
  db = await openRunner();
}, 60_000);
afterAll(async () => {
  await db?.close();
  rmSync(upTo14, { recursive: true, force: true });
});

describe('migration 0015 (channel management)', () => {
  it('makes every member of a workspace a member of its open channels, keeps private ones as they were', async () => {
    await db.migrate(upTo14);
    const one = async (text: string, params: unknown[]) =>
      (await db.query<{ id: string }>(text, params))[0]?.id as string;
    const user = (email: string) =>
      one(
        `insert into users (email, password_hash, first_name, last_name) values ($1, 'x', 'A', 'B') returning id`,
        [email],
      );
    const [ann, bob, cid, dan] = [
      await user('ann@example.com'),
      await user('bob@example.com'),
      await user('cid@example.com'),
      await user('dan@example.com'),
    ];
    const ws = await one(
      `insert into workspaces (name, description, created_by) values ('acme', 'x', $1) returning id`,
      [ann],
    );
    const other = await one(
      `insert into workspaces (name, description, created_by) values ('other', 'x', $1) returning id`,
      [dan],
    );
    for (const [w, u, role] of [
      [ws, ann, 'admin'],
      [ws, bob, 'viewer'],
      [ws, cid, 'editor'],
      [other, dan, 'admin'],
    ]) {
      await db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
        w,
        u,
        role,
      ]);
    }
    const channel = (w: string, name: string, isPrivate: boolean, creator: string) =>
      one(
        'insert into channels (workspace_id, name, description, is_private, created_by) values ($1, $2, $3, $4, $5) returning id',
        [w, name, 'd', isPrivate, creator],
      );
    const general = await channel(ws, 'general', false, ann);
    const secret = await channel(ws, 'secret', true, cid);
    const elsewhere = await channel(other, 'general', false, dan);
    await db.query('insert into channel_members (channel_id, user_id) values ($1, $2), ($3, $4), ($5, $6)', [
      general,
      ann,
      secret,
      cid,
      elsewhere,
      dan,
    ]);
    await db.query(
      `insert into channel_messages (channel_id, seq, sender_id, content, client_id) values ($1, 1, $2, 'hello', gen_random_uuid())`,
      [general, bob],
    );

    await db.migrate(migrationsFolder);

    const membersOf = async (c: string) =>
      (
        await db.query<{ user_id: string }>(
          'select user_id from channel_members where channel_id = $1 order by user_id',
          [c],
        )
      )
        .map((r) => r.user_id)
        .sort();
    expect(await membersOf(general)).toEqual([ann, bob, cid].sort());
    expect(await membersOf(secret)).toEqual([cid]);
    expect(await membersOf(elsewhere)).toEqual([dan]);
    const [row] = await db.query<{ topic: string; archived_at: Date | null; archived_by: string | null }>(
      'select topic, archived_at, archived_by from channels where id = $1',
      [general],
    );
    expect(row).toEqual({ topic: '', archived_at: null, archived_by: null });
    const [message] = await db.query<{ kind: string; content: string }>(
      'select kind, content from channel_messages where channel_id = $1',
      [general],
    );
    expect(message).toEqual({ kind: 'text', content: 'hello' });
    // Stars are per user and channel, once each.
    await db.query('insert into channel_stars (user_id, channel_id) values ($1, $2)', [bob, general]);
    await expect(
      db.query('insert into channel_stars (user_id, channel_id) values ($1, $2)', [bob, general]),
    ).rejects.toThrow();
  });
});
