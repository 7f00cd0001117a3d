// Idle resident memory of the bundle `npm start` runs, on a new PGlite data directory: RSS
// SETTLE_S seconds after the first 200 from /readyz, for several ways of starting it, taking turns
// within each of RUNS rounds so every way sees the same machine. Resident memory varies a lot
// between identical starts (PGlite's WebAssembly memory, when V8 collects), so the table gives the
// median with the range. Built-in ways (WAYS, comma-separated; default: all):
//   shipped       what `npm run serve` runs (its VAR=value pairs and node flags, read from package.json)
//   plain         plain `node` without the settings `npm run serve` adds
//   <name>=<args> a way of your own: node flags, then VAR=value pairs (`semi4=--max-semi-space-size=4`)
// BASELINE_BUNDLE=<another build's main.js> adds that build, started as shipped (`baseline`) and plain
// (`baseline-plain`).
//
//   npm run build && node --import tsx bench/idle-rss.ts
//   RUNS=5 SETTLE_S=10 WAYS=shipped,plain node --import tsx bench/idle-rss.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/local-services.ts';
import { serveCommand } from '../scripts/serve-command.ts';
import { envOf, repoRoot, report, SERVER_BUNDLE, sleep, wordsOf } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const SETTLE_S = Number(process.env.SETTLE_S ?? 5);
const bundle = join(repoRoot, SERVER_BUNDLE);

const { env: serveEnv, args: serveArgs } = serveCommand();

interface Way {
  args: string[];
  env: Record<string, string>;
  main: string;
}
const builtIn: Record<string, Way> = {
  shipped: { args: serveArgs, env: serveEnv, main: bundle },
  plain: { args: ['--enable-source-maps'], env: {}, main: bundle },
};
if (process.env.BASELINE_BUNDLE) {
  builtIn.baseline = { args: serveArgs, env: serveEnv, main: process.env.BASELINE_BUNDLE };
  builtIn['baseline-plain'] = { args: ['--enable-source-maps'], env: {}, main: process.env.BASELINE_BUNDLE };
}

function wayOf(spec: string): [string, Way] {
  const [name = spec, rest] = spec.split(/=(.*)/s);
  if (rest === undefined) {
    const way = builtIn[name];
    if (!way) throw new Error(`unknown way ${name}: ${Object.keys(builtIn).join(', ')} or name=args`);
    return [name, way];
  }
  const parts = wordsOf(rest);
  const env = envOf(parts.filter((p) => !p.startsWith('-')));
  return [
    name,
    { args: ['--enable-source-maps', ...parts.filter((p) => p.startsWith('-'))], env, main: bundle },
  ];
}
const ways = new Map(
  (process.env.WAYS ? process.env.WAYS.split(',') : Object.keys(builtIn)).map((spec) => wayOf(spec)),
);

/** kB figures of /proc/<pid>/smaps_rollup and status. */
function memory(pid: number) {
  const kib = (file: string, field: string) =>
    Number(readFileSync(`/proc/${pid}/${file}`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: kib('status', 'VmRSS'), anon: kib('smaps_rollup', 'Anonymous') };
}

const dataDirs: string[] = [];
async function startOnce(way: Way) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cohort-bench-rss-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, [...way.args, way.main], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...way.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (i > 600) throw new Error('server not ready in 60 s');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
      } catch {}
      await sleep(100);
    }
    await sleep(SETTLE_S * 1000);
    return memory(child.pid ?? 0);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const samples = new Map<string, { rss: number; anon: number }[]>([...ways.keys()].map((n) => [n, []]));
try {
  for (let run = 0; run < RUNS; run++) {
    for (const [name, way] of ways) {
      const m = await startOnce(way);
      samples.get(name)?.push(m);
      console.log(`run ${run + 1}/${RUNS} ${name}: ${(m.rss / 1024).toFixed(0)} MiB`);
    }
  }
} finally {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}

const mib = (kib: number) => Math.round(kib / 102.4) / 10;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const shipped = median((samples.get('shipped') ?? []).map((s) => s.rss));
report(
  'idle-rss',
  [...samples].map(([name, list]) => {
    const rss = list.map((s) => s.rss);
    return {
      way: name,
      rss_median_MiB: mib(median(rss)),
      rss_min_MiB: mib(Math.min(...rss)),
      rss_max_MiB: mib(Math.max(...rss)),
      anonymous_median_MiB: mib(median(list.map((s) => s.anon))),
      ...(shipped ? { vs_shipped: Math.round((median(rss) / shipped) * 100) / 100 } : {}),
    };
  }),
);
