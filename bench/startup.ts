// Cold start: process spawn to the first 200 from /readyz, median of RUNS (default 5), on an empty
// PGlite data directory (template copy + migrations check), on an existing one, and — when
// PostgreSQL answers at BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) —
// on a fresh database (migrations run) and on that same database again.
//
//   node --import tsx bench/startup.ts
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { repoRoot, report } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startOnce(env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return performance.now() - started;
      } catch {}
      if (performance.now() - started > 180_000) throw new Error('server did not become ready in 180 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    median_ms: Math.round(s[Math.floor(s.length / 2)] ?? 0),
    min_ms: Math.round(s[0] ?? 0),
    max_ms: Math.round(s.at(-1) ?? 0),
  };
};

const empty: number[] = [];
const existing: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-bench-'));
  empty.push(await startOnce({ DATA_DIR: dir }));
  existing.push(await startOnce({ DATA_DIR: dir }));
  rmSync(dir, { recursive: true, force: true });
}
const rows: Record<string, string | number>[] = [
  { case: 'empty PGlite DATA_DIR → /readyz', runs: RUNS, ...stats(empty), budget_ms: 3000 },
  { case: 'existing PGlite DATA_DIR → /readyz', runs: RUNS, ...stats(existing), budget_ms: 3000 },
];

const pgUp = await admin(async () => true).catch(() => false);
if (pgUp) {
  const fresh: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const name = `cohort_bench_${randomUUID().replaceAll('-', '')}`;
    await admin((c) => c.query(`create database ${name}`));
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const dir = mkdtempSync(join(tmpdir(), 'cohort-bench-'));
    try {
      fresh.push(await startOnce({ DATA_DIR: dir, DATABASE_URL: url.toString() }));
      again.push(await startOnce({ DATA_DIR: dir, DATABASE_URL: url.toString() }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    }
  }
  rows.push(
    { case: 'fresh PostgreSQL database → /readyz', runs: RUNS, ...stats(fresh), budget_ms: 3000 },
    { case: 'migrated PostgreSQL database → /readyz', runs: RUNS, ...stats(again), budget_ms: 3000 },
  );
} else {
  console.log(`PostgreSQL not reachable at ${PG_ADMIN_URL}: its cases are skipped.`);
}
report('startup', rows);
