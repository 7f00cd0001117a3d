import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { rowsOf } from './client.ts';
import { analyzeGrownTables, vacuumChurnedTables } from './pglite-statistics.ts';

/**
 * PGlite runs no autovacuum: the server gathers the embedded database's planner statistics itself,
 * for the tables that grew. On PostgreSQL its autovacuum does, and the server leaves it alone.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.ctx.db;
const addUsers = (from: number, count: number) =>
  db().execute(sql`insert into users (email, first_name, last_name)
    select 'stats-' || g || '@example.com', 'Stat', 'User' || g from generate_series(${from}::int, ${from + count - 1}::int) g`);
const statisticsOf = async (table: string) =>
  rowsOf<{ n: number }>(
    await db().execute(sql`select count(*)::int as n from pg_stats where tablename = ${table}`),
  )[0]?.n ?? 0;

describe.runIf(process.env.COHORT_TEST_DB !== 'postgres')('embedded database statistics', () => {
  it('analyzes a table once it has grown, and not again until it grows by a tenth', async () => {
    await addUsers(1, 5000);
    expect(await statisticsOf('users')).toBe(0);
    expect(await analyzeGrownTables(db())).toContain('users');
    expect(await statisticsOf('users')).toBeGreaterThan(0);
    // Nothing grew since.
    expect(await analyzeGrownTables(db())).not.toContain('users');
    await addUsers(5001, 100);
    expect(await analyzeGrownTables(db())).not.toContain('users');
    await addUsers(5101, 2000);
    expect(await analyzeGrownTables(db())).toContain('users');
  });

  it('vacuums a table once rows were deleted from it, and gives their space back', async () => {
    await db().execute(sql`create table vacuum_probe (id int primary key, payload text)`);
    await db().execute(sql`insert into vacuum_probe
      select g, repeat('x', 200) from generate_series(1, 2000) g`);
    await db().execute(sql`delete from vacuum_probe`);
    // The row counters reach pg_stat_user_tables at most once a second unless asked.
    await db().execute(sql`select pg_stat_force_next_flush()`);
    const pages = async () =>
      rowsOf<{ n: number }>(
        await db().execute(sql`select (pg_relation_size('vacuum_probe') / 8192)::int as n`),
      )[0]?.n ?? 0;
    const churned = await pages();
    expect(churned).toBeGreaterThan(10);
    expect(await vacuumChurnedTables(db())).toContain('vacuum_probe');
    expect(await pages()).toBeLessThan(churned);
    // Nothing died since: left alone.
    expect(await vacuumChurnedTables(db())).not.toContain('vacuum_probe');
    await db().execute(sql`drop table vacuum_probe`);
  });

  it('runs in the app: a pass gathers what grew', async () => {
    expect(t.statistics).toBeDefined();
    await db().execute(sql`insert into workspaces (name, description)
      select 'stats-' || g, repeat('x', 200) from generate_series(1, 3000) g`);
    expect(await statisticsOf('workspaces')).toBe(0);
    t.statistics?.wake();
    await expect.poll(() => statisticsOf('workspaces')).toBeGreaterThan(0);
  });
});

describe.runIf(process.env.COHORT_TEST_DB === 'postgres')('statistics on PostgreSQL', () => {
  it('are left to its autovacuum', () => {
    expect(t.statistics).toBeUndefined();
  });
});
