// Cold start: process spawn to the first 200 from /readyz, median of RUNS (default 5), on an empty
// PGlite data directory (template copy + migrations check), on an existing one, and — when
// PostgreSQL answers at BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) —
// on a fresh database (migrations run) and on that same database again.
//
// Each case is measured for the two ways of running the server, taking turns within every run so
// both see the same machine: the sources through tsx (`npm run dev`, the tests) and the esbuild
// bundle by plain node (`npm start`; built here first, with the PGlite template). The table gives
// both medians and their ratio; the budgets (issue 21) apply to the bundle.
//
// BASELINE_BUNDLE=<another build's main.js, inside this checkout> adds that build as a third way, taken
// in turn with the others: a before/after of a change measured in one run. Data directories are
// removed at the end, not between starts: on this machine's disk (ext4, `discard`) deleting 40 MiB
// clusters slowed the next start's unpack by up to 1.5 s.
//
//   node --import tsx bench/startup.ts
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildServer } from '../apps/server/build.ts';
import { buildPgliteTemplate } from '../apps/server/src/db/client.ts';
import { freePort } from '../scripts/local-services.ts';
import { repoRoot, report } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const { outdir } = await buildServer();
await buildPgliteTemplate();

const BASELINE_BUNDLE = process.env.BASELINE_BUNDLE;
const variants: Record<string, string[]> = {
  tsx: ['--import', 'tsx', 'apps/server/src/main.ts'],
  bundle: ['--enable-source-maps', join(outdir, 'main.js')],
  ...(BASELINE_BUNDLE ? { baseline: ['--enable-source-maps', BASELINE_BUNDLE] } : {}),
};
type Variant = string;
const names = Object.keys(variants);
const dataDirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-bench-'));
  dataDirs.push(dir);
  return dir;
};

async function startOnce(variant: Variant, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, variants[variant] ?? [], {
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
type Samples = Record<Variant, number[]>;
const samples = (): Samples => Object.fromEntries(names.map((name) => [name, []]));
const ratio = (a: number[], b: number[]) => Math.round((median(a) / median(b)) * 100) / 100;
const row = (name: string, xs: Samples, budgetMs: number | string) => ({
  case: name,
  runs: RUNS,
  tsx_median_ms: Math.round(median(xs.tsx ?? [])),
  bundle_median_ms: Math.round(median(xs.bundle ?? [])),
  bundle_min_ms: Math.round(Math.min(...(xs.bundle ?? []))),
  bundle_max_ms: Math.round(Math.max(...(xs.bundle ?? []))),
  'bundle/tsx': ratio(xs.bundle ?? [], xs.tsx ?? []),
  ...(BASELINE_BUNDLE
    ? {
        baseline_median_ms: Math.round(median(xs.baseline ?? [])),
        'bundle/baseline': ratio(xs.bundle ?? [], xs.baseline ?? []),
      }
    : {}),
  bundle_budget_ms: budgetMs,
});
// Rotate which variant goes first, so none always runs right after another's teardown.
const order = (i: number): Variant[] => names.map((_, k) => names[(i + k) % names.length] as Variant);

const empty = samples();
const existing = samples();
for (let i = 0; i < RUNS; i++) {
  for (const variant of order(i)) {
    const dir = newDataDir();
    empty[variant]?.push(await startOnce(variant, { DATA_DIR: dir }));
    existing[variant]?.push(await startOnce(variant, { DATA_DIR: dir }));
  }
}
const rows: Record<string, string | number>[] = [
  row('empty PGlite DATA_DIR → /readyz', empty, 1500),
  row('existing PGlite DATA_DIR → /readyz', existing, '—'),
];

const pgUp = await admin(async () => true).catch(() => false);
if (pgUp) {
  const fresh = samples();
  const again = samples();
  for (let i = 0; i < RUNS; i++) {
    for (const variant of order(i)) {
      const name = `cohort_bench_${randomUUID().replaceAll('-', '')}`;
      await admin((c) => c.query(`create database ${name}`));
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const dir = newDataDir();
      try {
        fresh[variant]?.push(await startOnce(variant, { DATA_DIR: dir, DATABASE_URL: url.toString() }));
        again[variant]?.push(await startOnce(variant, { DATA_DIR: dir, DATABASE_URL: url.toString() }));
      } finally {
        await admin((c) => c.query(`drop database if exists ${name} with (force)`));
      }
    }
  }
  rows.push(
    row('fresh PostgreSQL database → /readyz', fresh, '—'),
    row('migrated PostgreSQL database → /readyz', again, 1000),
  );
} else {
  console.log(`PostgreSQL not reachable at ${PG_ADMIN_URL}: its cases are skipped.`);
}
for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
report('startup', rows);
