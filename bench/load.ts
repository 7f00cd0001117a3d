// Active users at scale: the largest number of simulated users one node (or two behind Redis) holds
// with every request p99 ≤ 200 ms and average ≤ 50 ms, message delivery p99 ≤ 100 ms and no errors.
//
//   node --import tsx bench/load.ts                          one node, steps 500,1000,2000,3000
//   STEPS=1000,2000 HOLD=60 node --import tsx bench/load.ts
//   NODES=2 node --import tsx bench/load.ts                  two nodes, Redis adapter, each user on a
//                                                            random node
//   PROFILE=/tmp/prof node --import tsx bench/load.ts        V8 CPU profile of each node during each
//                                                            measured hold (summarized by bench/cpu-top.ts)
//   HEAP_PROFILE=/tmp/heap node --import tsx bench/load.ts   V8 sampling heap profile of what each node
//                                                            allocated in each hold and kept past the
//                                                            young generation (bench/heap-top.ts)
//   NODE_CPU_QUOTA=0.4 NODES=2 node --import tsx bench/load.ts
//                                                            each node in its own cgroup (v1 cpu
//                                                            controller, root only) capped at 0.4 cores;
//                                                            PostgreSQL, Redis and the generator uncapped
//   NODE_CPU_PERIOD_US=10000 NODE_CPU_BURST_US=3000 …       the quota's CFS period and burst (default
//                                                            10 ms, no burst)
//   NODE_ARGS='--max-semi-space-size=16' …                  node flags for the server nodes, after the
//                                                            ones `npm run serve` gives (a later flag wins)
//   NODE_ENTRY=bundle …                                      the nodes run the build's bundle, as `npm start`
//                                                            does (npm run build first); default: the sources
//                                                            through tsx
//
// Users, sessions, workspaces (WORKSPACE_SIZE users each, CHANNELS channels), 50 messages of history
// per channel and a task board per user are seeded with bulk SQL (no argon2 per user); everything
// measured is real traffic: socket.io-client over websocket to /chat, and HTTP with Bearer sessions.
// Each user is in 5 channels (~25 members each at the defaults) and, once a minute from a random
// phase, types, sends a message, reads history twice and opens the task board (bench/load-generator.ts).
// Steps are cumulative: users are added, then WARMUP s, then HOLD s measured. A fresh database is
// created on DATABASE_URL's server and dropped afterwards.
import { type ChildProcess, execSync, fork, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { WebSocket } from 'ws';
import { freePort } from '../scripts/local-services.ts';
import { serveCommand, wordsOf } from '../scripts/serve-command.ts';
import { repoRoot, report, SERVER_BUNDLE, serverEntry } from './lib.ts';
import type { LoadUser, ParentMessage, WindowStats } from './load-generator.ts';

const STEPS = (process.env.STEPS ?? '500,1000,2000,3000').split(',').map(Number);
const HOLD = Number(process.env.HOLD ?? 60);
const WARMUP = Number(process.env.WARMUP ?? 10);
const NODES = Number(process.env.NODES ?? 1);
const GENERATORS = Number(process.env.GENERATORS ?? 1);
const WORKSPACE_SIZE = Number(process.env.WORKSPACE_SIZE ?? 100);
const CHANNELS = Number(process.env.CHANNELS ?? 20);
const HISTORY = Number(process.env.HISTORY ?? 50);
/** Keep going after a step misses the targets (default: stop there). */
const ALL_STEPS = process.env.ALL_STEPS === '1';
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Cores per node (a CFS quota per node process); unset: uncapped. */
const NODE_CPU_QUOTA = Number(process.env.NODE_CPU_QUOTA ?? 0);
// A 10 ms CFS period (the kernel's default is 100 ms): the quota then acts like a slower core,
// not like a node frozen for up to 60 ms of every 100 (that pause alone would break delivery p99).
const CPU_PERIOD_US = Number(process.env.NODE_CPU_PERIOD_US ?? 10_000);
// Quota a node left unused that it may spend later in a burst (`cpu.cfs_burst_us`, at most the
// quota): a history page or a board is one burst longer than a period's share. Unset: none.
const CPU_BURST_US = Number(process.env.NODE_CPU_BURST_US ?? 0);
// A node runs the sources through tsx, otherwise as shipped: with the node flags and VAR=value pairs of
// `npm run serve`, then NODE_ARGS (the generator keeps its own flags).
const shipped = serveCommand();
const NODE_ARGS = [...shipped.args, ...wordsOf(process.env.NODE_ARGS)];
const NODE_ENTRY = serverEntry(process.env.NODE_ENTRY === 'bundle' ? 'bundle' : 'sources');
if (process.env.NODE_ENTRY === 'bundle' && !existsSync(join(repoRoot, SERVER_BUNDLE)))
  throw new Error(`NODE_ENTRY=bundle needs ${SERVER_BUNDLE}: run npm run build first`);
const CGROUP_ROOT = '/sys/fs/cgroup/cpu';
// One profile kind per run: CPU (PROFILE) or what outlives the young generation (HEAP_PROFILE).
const PROFILE_DIR = process.env.PROFILE || process.env.HEAP_PROFILE || '';
const PROFILE_KIND = process.env.PROFILE ? 'cpu' : 'heap';
const TARGET = { requestP99: 200, requestAvg: 50, deliveryP99: 100 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLK_TCK = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

const rssMiB = (pid: number) =>
  Math.round(Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);

/** Busy and total jiffies of the whole machine (every process, other people's work included). */
function machineJiffies() {
  const [, ...f] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const n = f.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
const r1 = (x: number) => Math.round(x * 10) / 10;
function summary(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return {
    n: s.length,
    avg: s.length ? s.reduce((a, b) => a + b, 0) / s.length : 0,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    max: s.at(-1) ?? 0,
  };
}

async function waitReady(url: string, child: ChildProcess) {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {}
    await sleep(100);
  }
  throw new Error('server did not become ready');
}

// ---------------------------------------------------------------------------------------------------
// Database and nodes

const run = randomUUID().slice(0, 8);
const dbName = `cohort_load_${run}`;
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`create database ${dbName}`);
await admin.end();
const dbUrl = new URL(DATABASE_URL);
dbUrl.pathname = `/${dbName}`;

const dataDir = mkdtempSync(join(tmpdir(), 'cohort-load-'));
const servers: { url: string; child: ChildProcess; inspectPort: number; cgroup: string }[] = [];

/** CFS periods of a node's cgroup so far, and those in which it ran out of quota. */
function throttling(cgroup: string) {
  if (!cgroup) return { periods: 0, throttled: 0 };
  const stat = Object.fromEntries(
    readFileSync(join(cgroup, 'cpu.stat'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ') as [string, string]),
  );
  return {
    periods: Number(stat.nr_periods),
    throttled: Number(stat.nr_throttled),
  };
}
const generators: ChildProcess[] = [];

let cleaning: Promise<void> | null = null;
const cleanup = () => {
  cleaning ??= cleanupOnce();
  return cleaning;
};
// Ctrl-C or a kill still drops the database and removes the cgroups.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: cleaning up…`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function cleanupOnce() {
  // Generators first, so no request is in flight when the nodes shut down.
  await Promise.all(
    generators.map(
      (g) =>
        new Promise((r) => {
          if (g.exitCode !== null) return r(null);
          g.once('exit', r);
          if (g.connected) g.send({ type: 'stop' } satisfies ParentMessage);
          setTimeout(() => g.kill('SIGKILL'), 5000).unref();
        }),
    ),
  );
  await Promise.all(
    servers.map(
      ({ child }) =>
        new Promise((r) => {
          if (child.exitCode !== null) return r(null);
          child.once('exit', r);
          child.kill('SIGTERM');
        }),
    ),
  );
  // A cgroup can only be removed once its process has exited (awaited above).
  for (const { cgroup } of servers) if (cgroup && existsSync(cgroup)) rmdirSync(cgroup);
  rmSync(dataDir, { recursive: true, force: true });
  if (NODES > 1) {
    // The adapter's stream of this run.
    const { createClient } = await import('redis');
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    await redis.del(`cohort-load-${run}`);
    await redis.quit();
  }
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  await c.query(`drop database if exists ${dbName} with (force)`);
  await c.end();
}

/** The nodes' /metrics token: the bench reads their garbage collections there. */
const METRICS_TOKEN = process.env.METRICS_TOKEN || randomBytes(16).toString('hex');

/**
 * Garbage collections a node has run so far, by V8's kind (prom-client's default metrics): a major
 * (mark-compact) pause under a CPU quota is what failed held steps (docs/performance.md, "Session
 * 18"), and the count of minor ones tracks how much a node allocates.
 */
async function gcCounts(url: string): Promise<{ major: number; minor: number }> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const count = (kind: string) =>
    Number(
      text.match(new RegExp(`^nodejs_gc_duration_seconds_count\\{kind="${kind}"\\} (\\d+)`, 'm'))?.[1] ?? 0,
    );
  return { major: count('major'), minor: count('minor') };
}

async function startNode(i: number) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const inspectPort = PROFILE_DIR ? await freePort() : 0;
  const profile = PROFILE_DIR ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  const child = spawn(process.execPath, [...profile, ...NODE_ARGS, ...NODE_ENTRY], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...shipped.env,
      DATA_DIR: join(dataDir, `node-${i}`),
      DATABASE_URL: dbUrl.toString(),
      // Two nodes share rooms through Redis, on a stream of their own (other work uses this Redis).
      REDIS_URL: NODES > 1 ? REDIS_URL : '',
      REDIS_STREAM: `cohort-load-${run}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const server = { url, child, inspectPort, cgroup: '' };
  servers.push(server);
  if (NODE_CPU_QUOTA > 0) {
    // Moved in right after the spawn: only the first milliseconds of start-up run uncapped.
    const cgroup = join(CGROUP_ROOT, `cohort-bench-node${i}-${child.pid}`);
    mkdirSync(cgroup);
    server.cgroup = cgroup; // known to cleanup() from here on
    writeFileSync(join(cgroup, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
    writeFileSync(join(cgroup, 'cpu.cfs_quota_us'), String(Math.round(NODE_CPU_QUOTA * CPU_PERIOD_US)));
    if (CPU_BURST_US > 0) writeFileSync(join(cgroup, 'cpu.cfs_burst_us'), String(CPU_BURST_US));
    // A high weight makes the quota the node's budget on a shared machine too, not only its ceiling:
    // up to the quota it runs ahead of other work (8 × a nice-0 process).
    writeFileSync(join(cgroup, 'cpu.shares'), String(8 * 1024));
    writeFileSync(join(cgroup, 'cgroup.procs'), String(child.pid));
  }
  await waitReady(url, child);
}

/**
 * Starts a V8 sampling profiler of a node through its inspector; the answer stops it and saves the
 * profile. The heap kind samples every 32 KiB allocated and keeps the samples of objects a scavenge
 * did not free (alive at the end, or freed later by a major collection): what fills the old generation.
 */
async function startProfile(inspectPort: number): Promise<(file: string) => Promise<void>> {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(target?.webSocketDebuggerUrl ?? '');
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const call = (method: string, params?: unknown) =>
    new Promise<{ profile?: unknown }>((resolve) => {
      const me = ++id;
      const on = (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { id?: number; result?: { profile?: unknown } };
        if (m.id !== me) return;
        ws.off('message', on);
        resolve(m.result ?? {});
      };
      ws.on('message', on);
      ws.send(JSON.stringify({ id: me, method, params }));
    });
  const domain = PROFILE_KIND === 'cpu' ? 'Profiler' : 'HeapProfiler';
  await call(`${domain}.enable`);
  if (PROFILE_KIND === 'cpu') await call('Profiler.start');
  else
    await call('HeapProfiler.startSampling', {
      samplingInterval: 32 * 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
  return async (file) => {
    const { profile } = await call(PROFILE_KIND === 'cpu' ? 'Profiler.stop' : 'HeapProfiler.stopSampling');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    ws.close();
  };
}

/** Committed transactions of the bench database so far (each autocommit statement is one). */
async function transactions(): Promise<number> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>(
      'select xact_commit::text as n from pg_stat_database where datname = $1',
      [dbName],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------------
// Seeding: bulk SQL straight into the migrated database.

async function seed(total: number): Promise<LoadUser[]> {
  const c = new pg.Client({ connectionString: dbUrl.toString() });
  await c.connect();
  try {
    const ids = Array.from({ length: total }, () => randomUUID());
    const tokens = ids.map(() => randomBytes(32).toString('base64url'));
    const hashes = tokens.map((t) => createHash('sha256').update(t).digest('hex'));
    await c.query(
      `insert into users (id, email, first_name, last_name)
       select id, 'load-' || n || '@example.com', 'Load', 'User ' || n
       from unnest($1::uuid[]) with ordinality as u(id, n)`,
      [ids],
    );
    await c.query(
      `insert into sessions (user_id, token_hash, remember, expires_at)
       select u, h, true, now() + interval '30 days' from unnest($1::uuid[], $2::text[]) as s(u, h)`,
      [ids, hashes],
    );
    const workspaceCount = Math.ceil(total / WORKSPACE_SIZE);
    const users: LoadUser[] = [];
    for (let w = 0; w < workspaceCount; w++) {
      const name = `load-${run}-${w}`;
      const members = ids.slice(w * WORKSPACE_SIZE, (w + 1) * WORKSPACE_SIZE);
      const owner = members[0] as string;
      const {
        rows: [ws],
      } = await c.query<{ id: string }>(
        `insert into workspaces (name, description, created_by) values ($1, 'load test', $2) returning id`,
        [name, owner],
      );
      const workspaceId = (ws as { id: string }).id;
      await c.query(
        `insert into workspace_members (workspace_id, user_id, role)
         select $1, u, case when u = $2::uuid then 'admin' else 'editor' end from unnest($3::uuid[]) u`,
        [workspaceId, owner, members],
      );
      const { rows: channelRows } = await c.query<{ id: string }>(
        `insert into channels (workspace_id, name, description, created_by, last_seq, last_rev)
         select $1, 'room-' || n, 'load test', $2, $3, $3 from generate_series(0, $4 - 1) n
         returning id`,
        [workspaceId, owner, HISTORY, CHANNELS],
      );
      const channelIds = channelRows.map((r) => r.id);
      await c.query(
        `insert into channel_messages (channel_id, seq, sender_id, content, client_id, created_at, rev)
         select ch, s, $2, 'seeded message ' || s, gen_random_uuid(), now() - ($3 - s) * interval '1 minute', s
         from unnest($1::uuid[]) ch cross join generate_series(1, $3) s`,
        [channelIds, owner, HISTORY],
      );
      members.forEach((_, k) => {
        const index = w * WORKSPACE_SIZE + k;
        // 5 distinct channels of the workspace per member, spread evenly.
        const stride = Math.max(1, Math.floor(CHANNELS / 5));
        const mine = Array.from(
          { length: Math.min(5, CHANNELS) },
          (_, j) => channelIds[(k + j * stride) % CHANNELS] as string,
        );
        users.push({
          index,
          token: tokens[index] as string,
          workspaceName: name,
          channelIds: mine,
          taskListId: '',
          // At random, as a load balancer would: by index, every member of a channel landed on the
          // same node (the channel stride is even) and no delivery crossed Redis.
          node: Math.floor(Math.random() * NODES),
        });
      });
    }
    // A personal task board per user (issue 20): one list with five tasks.
    await c.query(
      `insert into task_boards (owner_id, title, created_by) select u, 'Personal board', u from unnest($1::uuid[]) u`,
      [ids],
    );
    const { rows: lists } = await c.query<{ id: string; owner_id: string }>(
      `insert into task_lists (board_id, owner_id, title)
       select b.id, b.owner_id, 'Board' from task_boards b where b.owner_id = any($1::uuid[]) returning id, owner_id`,
      [ids],
    );
    await c.query(
      `insert into tasks (list_id, owner_id, title, position)
       select l.id, l.owner_id, 'Task ' || p, p from task_lists l cross join generate_series(0, 4) p`,
    );
    const listOf = new Map(lists.map((l) => [l.owner_id, l.id]));
    for (const u of users) u.taskListId = listOf.get(ids[u.index] as string) ?? '';
    await c.query('analyze');
    return users;
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------------
// Generators

function request<T>(g: ChildProcess, msg: ParentMessage, answer: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== answer) return;
      g.off('message', on);
      resolve(m as T);
    };
    g.on('message', on);
    g.send(msg);
  });
}
const all = <T>(msg: ParentMessage, answer: string) =>
  Promise.all(generators.map((g) => request<T>(g, msg, answer)));

/** A history page, retried: an overloaded node may time out a connection after the load stops. */
async function readPage(url: string, token: string): Promise<{ _id: string; seq: number }[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.ok) return (await res.json()) as { _id: string; seq: number }[];
      throw new Error(`${res.status} ${await res.text()}`);
    } catch (err) {
      if (attempt >= 5) throw err;
      await sleep(1000 * attempt);
    }
  }
}

interface StepRow extends Record<string, string | number> {}

try {
  const total = Math.max(...STEPS);
  const started = new Date();
  console.log(
    `load: ${NODES} node(s) running ${NODE_ENTRY.at(-1)}${NODE_CPU_QUOTA > 0 ? ` capped at ${NODE_CPU_QUOTA} cores each (CFS period ${CPU_PERIOD_US / 1000} ms${CPU_BURST_US > 0 ? `, burst ${CPU_BURST_US / 1000} ms` : ''})` : ''}, ${GENERATORS} generator process(es), steps ${STEPS.join(', ')}, ` +
      `${WARMUP}+${HOLD} s each, ${CHANNELS} channels per ${WORKSPACE_SIZE}-user workspace, PostgreSQL ${dbName}`,
  );
  for (let i = 0; i < NODES; i++) await startNode(i);
  console.log(`seeding ${total} users…`);
  const users = await seed(total);

  for (let g = 0; g < GENERATORS; g++) {
    const child = fork(join(repoRoot, 'bench', 'load-generator.ts'), [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=8192'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    generators.push(child);
  }
  await Promise.all(
    generators.map((g, i) =>
      request(
        g,
        { type: 'init', nodes: servers.map((s) => s.url), users, generator: i, generators: GENERATORS },
        'ready',
      ),
    ),
  );

  const rows: StepRow[] = [];
  const details: Record<string, unknown>[] = [];
  let best: StepRow | null = null;
  for (const step of STEPS) {
    const t0 = performance.now();
    const grown = await all<{ connected: number; failed: number }>({ type: 'grow', upto: step }, 'grown');
    const connected = grown.reduce((a, g) => a + g.connected, 0);
    console.log(
      `step ${step}: ${connected} users connected and joined (${((performance.now() - t0) / 1000).toFixed(1)} s), warming up…`,
    );
    await sleep(WARMUP * 1000);
    await all({ type: 'reset' }, 'reset');
    const at = new Date();
    const serverCpu0 = servers.map((s) => cpuSeconds(s.child.pid ?? 0));
    const throttle0 = servers.map((s) => throttling(s.cgroup));
    const machine0 = machineJiffies();
    const load0 = loadavg()[0] ?? 0;
    const xact0 = await transactions();
    const gc0 = await Promise.all(servers.map((s) => gcCounts(s.url)));
    const profiles = PROFILE_DIR ? await Promise.all(servers.map((s) => startProfile(s.inspectPort))) : [];
    const w0 = performance.now();
    await sleep(HOLD * 1000);
    const stats = await all<WindowStats>({ type: 'collect' }, 'stats');
    const seconds = (performance.now() - w0) / 1000;
    await Promise.all(
      profiles.map((stop, i) =>
        stop(join(PROFILE_DIR, `load-${run}-${NODES}n-${step}u-node${i}.${PROFILE_KIND}profile`)),
      ),
    );
    const machine1 = machineJiffies();
    const throttle = servers.map((s, i) => {
      const [a, b] = [throttle0[i] ?? throttling(''), throttling(s.cgroup)];
      return (b.throttled - a.throttled) / Math.max(1, b.periods - a.periods);
    });
    const xacts = (await transactions()) - xact0;
    const gc = await Promise.all(
      servers.map(async (s, i) => {
        const [a, b] = [gc0[i] ?? { major: 0, minor: 0 }, await gcCounts(s.url)];
        return { major: b.major - a.major, minor: b.minor - a.minor };
      }),
    );
    const serverCpu = servers.map(
      (s, i) => ((cpuSeconds(s.child.pid ?? 0) - (serverCpu0[i] ?? 0)) / seconds) * 100,
    );

    const requests: Record<string, number[]> = {};
    const errors: Record<string, number> = {};
    const deliveries: number[] = [];
    const crossNode: number[] = [];
    const sameNode: number[] = [];
    let typing = 0;
    for (const s of stats) {
      for (const [k, v] of Object.entries(s.requests)) requests[k] = [...(requests[k] ?? []), ...v];
      for (const [k, v] of Object.entries(s.errors)) errors[k] = (errors[k] ?? 0) + v;
      deliveries.push(...s.deliveries);
      crossNode.push(...s.crossNode);
      sameNode.push(...s.sameNode);
      typing += s.typingReceived;
    }
    const perKind = Object.entries(requests)
      .filter(([k]) => k !== 'socket joinChannel')
      .map(([kind, xs]) => ({ kind, ...summary(xs) }));
    const allRequests = summary(perKind.flatMap((k) => requests[k.kind] ?? []));
    const delivery = summary(deliveries);
    const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
    const worstP99 = Math.max(...perKind.map((k) => k.p99));
    const worstAvg = Math.max(...perKind.map((k) => k.avg));
    const pass =
      connected === step &&
      worstP99 <= TARGET.requestP99 &&
      worstAvg <= TARGET.requestAvg &&
      delivery.p99 <= TARGET.deliveryP99 &&
      errorCount === 0;
    const sends = requests['socket sendMessage']?.length ?? 0;
    const row: StepRow = {
      users: step,
      connected,
      pass: pass ? 'yes' : 'NO',
      requests_per_s: Math.round(allRequests.n / seconds),
      request_avg_ms: r1(allRequests.avg),
      request_p99_ms: r1(allRequests.p99),
      worst_kind_p99_ms: r1(worstP99),
      worst_kind_avg_ms: r1(worstAvg),
      messages_per_s: r1(sends / seconds),
      deliveries_per_s: Math.round(delivery.n / seconds),
      delivery_p50_ms: r1(delivery.p50),
      delivery_p99_ms: r1(delivery.p99),
      // Two nodes: p50 / p99 of deliveries within a node and between nodes (through Redis).
      same_node_delivery_ms: NODES > 1 ? `${r1(summary(sameNode).p50)} / ${r1(summary(sameNode).p99)}` : '',
      cross_node_delivery_ms:
        NODES > 1 ? `${r1(summary(crossNode).p50)} / ${r1(summary(crossNode).p99)}` : '',
      errors: errorCount,
      // Per request (HTTP and socket sends; periodic checks and fan-out included): the cost side,
      // which a busy machine disturbs far less than latency.
      db_xacts_per_request: r1(xacts / Math.max(1, allRequests.n)),
      server_cpu_ms_per_request: r1(
        (serverCpu.reduce((a, b) => a + b, 0) * 10 * seconds) / Math.max(1, allRequests.n),
      ),
      server_cpu_pct: serverCpu.map((c) => Math.round(c)).join('+'),
      // Share of CFS periods in which a node ran out of its quota (with NODE_CPU_QUOTA).
      throttled_periods_pct: throttle.map((t) => Math.round(t * 100)).join('+'),
      // V8 collections during the hold, per node: major ones, and minor ones per 100 requests (each
      // about a young generation's worth of allocation).
      major_gcs: gc.map((g) => g.major).join('+'),
      minor_gcs_per_100_requests: r1(
        (gc.reduce((a, g) => a + g.minor, 0) * 100) / Math.max(1, allRequests.n),
      ),
      server_rss_mib: servers.map((s) => rssMiB(s.child.pid ?? 0)).join('+'),
      generator_cpu_pct: stats.map((s) => Math.round((s.cpuSeconds / seconds) * 100)).join('+'),
      machine_cpu_pct: Math.round(
        ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100,
      ),
      load_avg: `${load0.toFixed(1)}→${(loadavg()[0] ?? 0).toFixed(1)}`,
      at: at.toISOString().slice(11, 19),
    };
    rows.push(row);
    details.push({
      users: step,
      at: at.toISOString(),
      perKind: perKind.map((k) => ({ ...k, avg: r1(k.avg), p50: r1(k.p50), p99: r1(k.p99), max: r1(k.max) })),
      delivery: { ...delivery, avg: r1(delivery.avg) },
      typingReceivedPerSecond: Math.round(typing / seconds),
      errors,
    });
    console.table(
      perKind.map((k) => ({
        kind: k.kind,
        n: k.n,
        avg: r1(k.avg),
        p50: r1(k.p50),
        p99: r1(k.p99),
        max: r1(k.max),
      })),
    );
    console.log(row, Object.keys(errors).length ? errors : '');
    if (pass) best = row;
    else if (!ALL_STEPS) break;
  }

  // Every node answers the same ordered history for every channel, holding every acknowledged
  // message exactly once, and what clients were delivered matches it seq for seq.
  console.log('checking histories…');
  // The load stops first (sockets closed, nothing in flight), then the histories are read.
  const histories = await all<{ seen: [string, [number, string][]][]; acked: string[] }>(
    { type: 'histories' },
    'histories',
  );
  const sample = users.slice(0, Math.max(...STEPS));
  const channelsChecked = new Map<string, LoadUser>();
  for (const u of sample)
    for (const ch of u.channelIds) if (!channelsChecked.has(ch)) channelsChecked.set(ch, u);
  const storedIds = new Map<string, string[]>();
  let mismatches = 0;
  let gaps = 0;
  for (const [channelId, user] of channelsChecked) {
    const perNode: string[][] = [];
    for (const { url } of servers) {
      const ids: string[] = [];
      let after = 0;
      for (;;) {
        const page = await readPage(
          `${url}/api/workspaces/${user.workspaceName}/channels/${channelId}/messages?after=${after}&limit=200`,
          user.token,
        );
        for (const m of page) {
          if (m.seq !== ids.length + 1) gaps++;
          ids.push(m._id);
        }
        if (page.length < 200) break;
        after = page.at(-1)?.seq ?? after;
      }
      perNode.push(ids);
    }
    const [first, ...rest] = perNode;
    for (const other of rest) if (JSON.stringify(other) !== JSON.stringify(first)) mismatches++;
    storedIds.set(channelId, first ?? []);
  }
  let deliveredMismatch = 0;
  for (const h of histories) {
    for (const [channelId, entries] of h.seen) {
      const stored = storedIds.get(channelId) ?? [];
      for (const [seq, id] of entries) if (stored[seq - 1] !== id) deliveredMismatch++;
    }
  }
  const everyId = new Map<string, number>();
  for (const ids of storedIds.values()) for (const id of ids) everyId.set(id, (everyId.get(id) ?? 0) + 1);
  const acked = histories.flatMap((h) => h.acked);
  const missing = acked.filter((id) => everyId.get(id) !== 1).length;
  const consistency = {
    channels: channelsChecked.size,
    nodes: servers.length,
    histories_differing_between_nodes: mismatches,
    seq_gaps: gaps,
    acknowledged: acked.length,
    acknowledged_not_stored_exactly_once: missing,
    deliveries_checked: histories.reduce((a, h) => a + h.seen.reduce((b, [, e]) => b + e.length, 0), 0),
    deliveries_not_matching_history: deliveredMismatch,
  };
  console.log(consistency);

  const name = `${NODES > 1 ? `load-${NODES}-nodes` : 'load-1-node'}${NODE_CPU_QUOTA > 0 ? `-quota-${NODE_CPU_QUOTA}` : ''}`;
  report(name, rows);
  console.log(
    `largest step meeting every target: ${best ? best.users : 'none'} users` +
      (best ? ` (${best.messages_per_s} messages/s, ${best.deliveries_per_s} deliveries/s)` : ''),
  );
  console.log(`started ${started.toISOString()}, ${cpus().length} CPUs (${cpus()[0]?.model})`);
  // The details file gets the per-kind figures and the consistency check too.
  writeFileSync(
    join(repoRoot, 'bench', 'results', `${name}-details.json`),
    JSON.stringify(
      {
        started,
        nodes: NODES,
        nodeCpuQuota: NODE_CPU_QUOTA || null,
        nodeCpuBurstUs: CPU_BURST_US || null,
        nodeEntry: NODE_ENTRY.at(-1),
        generators: GENERATORS,
        best,
        rows,
        details,
        consistency,
      },
      null,
      2,
    ),
  );
} finally {
  await cleanup();
}
process.exit(0);
