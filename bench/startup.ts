// Server start to a 200 from /readyz on an empty PGlite data directory, and on an existing one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, report } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const PORT = 3391;

async function startOnce(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) return performance.now() - started;
      } catch {}
      if (performance.now() - started > 60_000) throw new Error('server did not become ready in 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
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
  empty.push(await startOnce(dir));
  existing.push(await startOnce(dir));
  rmSync(dir, { recursive: true, force: true });
}
report('startup', [
  { case: 'empty PGlite DATA_DIR → /readyz', runs: RUNS, ...stats(empty), budget_ms: 3000 },
  { case: 'existing DATA_DIR → /readyz', runs: RUNS, ...stats(existing), budget_ms: 3000 },
]);
