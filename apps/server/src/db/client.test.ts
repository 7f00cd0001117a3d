import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl || process.env.COHORT_TEST_DB !== 'postgres')('PostgreSQL migrations', () => {
  it('lets several nodes start together on a fresh database', async () => {
    const name = `cohort_test_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(serverUrl as string);
      url.pathname = `/${name}`;
      // Without the migration lock, concurrent migrators collide on "relation already exists".
      const opened = await Promise.allSettled(
        [1, 2, 3].map(() => openDatabase({ databaseUrl: url.toString(), dataDir: '' })),
      );
      const nodes = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(opened.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      for (const node of nodes) await node.ping();
      await Promise.all(nodes.map((node) => node.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

if (!serverUrl) console.log('PostgreSQL migration test skipped: TEST_DATABASE_URL is not set');
