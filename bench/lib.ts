import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../scripts/local-services.ts';
import { serveCommand, wordsOf } from '../scripts/serve-command.ts';

export { freePort };

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Prints a table and writes it, with the machine it ran on, to bench/results/<name>.json. */
export function report(name: string, rows: Record<string, string | number>[]) {
  console.log(`\n${name}`);
  console.table(rows);
  const dir = join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  // The load average says how much of the machine the run really had (CI and others share it).
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadavg: loadavg().map((l) => Math.round(l * 10) / 10),
  };
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({ name, at: new Date().toISOString(), node: process.version, machine, rows }, null, 2),
  );
}

// -- Accounts that may join workspaces --------------------------------------------------------------

const parsedMail = new Map<string, { to: string[]; text: string }>();

/**
 * Verifies `email` with the link of its verification mail, read where a server without SMTP_URL
 * writes its mail (DATA_DIR/outbox/*.eml): only a verified address can accept an invitation.
 */
export async function verifyFromOutbox(baseUrl: string, dataDir: string, email: string, timeoutMs = 60_000) {
  const { simpleParser } = await import('mailparser');
  const { readdir, readFile } = await import('node:fs/promises');
  const outbox = join(dataDir, 'outbox');
  const until = Date.now() + timeoutMs;
  for (;;) {
    for (const name of (await readdir(outbox).catch(() => [] as string[])).filter((n) =>
      n.endsWith('.eml'),
    )) {
      const file = join(outbox, name);
      let mail = parsedMail.get(file);
      if (!mail) {
        const parsed = await simpleParser(await readFile(file));
        const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((a) =>
          a.value.map((v) => (v.address ?? '').toLowerCase()),
        );
        mail = { to, text: parsed.text ?? '' };
        parsedMail.set(file, mail);
      }
      if (!mail.to.includes(email.toLowerCase())) continue;
      const link = mail.text.match(/https?:\/\/[^\s<>"']+\/verify-email\?[^\s<>"']+/)?.[0];
      const token = link ? new URL(link).searchParams.get('token') : null;
      if (!token) continue;
      const res = await fetch(`${baseUrl}/api/account/verify-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      if (!res.ok) throw new Error(`verifying ${email}: ${res.status} ${await res.text()}`);
      return;
    }
    if (Date.now() > until) throw new Error(`no verification mail to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The signed-in user (`token`) accepts their invitation to the workspace (its id): how anyone joins. */
export async function acceptInvitation(baseUrl: string, token: string, workspaceId: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const listed = await fetch(`${baseUrl}/api/invitations`, { headers });
  if (!listed.ok) throw new Error(`invitations: ${listed.status} ${await listed.text()}`);
  const mine = (await listed.json()) as Array<{ _id: string; workspace: { _id: string } }>;
  const invitation = mine.find((i) => i.workspace._id === workspaceId);
  if (!invitation) throw new Error(`no invitation to ${workspaceId}`);
  const accepted = await fetch(`${baseUrl}/api/invitations/${invitation._id}/accept`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (!accepted.ok) throw new Error(`accepting: ${accepted.status} ${await accepted.text()}`);
}

// -- Servers, requests and figures shared by the latency benches --------------------------------------

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PostgreSQL answers at `url`: a bench skips its PostgreSQL case otherwise (a newcomer's machine). */
export async function postgresReachable(url: string) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export { envOf, wordsOf } from '../scripts/serve-command.ts';

const CLK_TCK = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime
}

/**
 * CPU seconds used by the PostgreSQL backends serving `databaseUrl` (this machine's processes, read
 * from /proc) since `start()`, autovacuum workers included. The backends are sampled every 500 ms,
 * so one that exits during the window (a pool's idle connection, a vacuum) still counts up to its
 * last sample; backends that appear later count from zero.
 */
export async function databaseCpu(databaseUrl: string | undefined) {
  if (!databaseUrl) return { start: async () => {}, seconds: async () => 0 };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async (initial: boolean) => {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    for (const { pid } of rows) {
      let cpu: number;
      try {
        cpu = cpuSeconds(pid);
      } catch {
        continue; // exited: its last sample stands
      }
      if (!first.has(pid)) first.set(pid, initial ? cpu : 0);
      last.set(pid, cpu);
    }
  };
  let pending = Promise.resolve();
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    start: async () => {
      await sample(true);
      timer = setInterval(() => {
        pending = pending.then(() => sample(false)).catch(() => {});
      }, 500);
    },
    seconds: async () => {
      clearInterval(timer);
      await pending;
      await sample(false);
      await client.end();
      let total = 0;
      for (const [pid, cpu] of last) total += cpu - (first.get(pid) ?? 0);
      return total;
    },
  };
}

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
export function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const mid = (s.length - 1) / 2;
  return ((s[Math.floor(mid)] ?? 0) + (s[Math.ceil(mid)] ?? 0)) / 2;
}

/** p50/p95/p99/max of latencies in ms, to 0.1 ms. */
export function summary(latencies: number[]) {
  const s = [...latencies].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    p50_ms: r(percentile(s, 50)),
    p95_ms: r(percentile(s, 95)),
    p99_ms: r(percentile(s, 99)),
    max_ms: r(s.at(-1) ?? 0),
  };
}

export async function waitReady(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {}
    await sleep(100);
  }
  throw new Error('server did not become ready');
}

/** One JSON API call (Bearer `token`); throws on a non-2xx answer. */
export async function call<T>(
  url: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function pool<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false; // after a failure, start no more: the caller is cleaning up
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length && !failed) {
        const i = next++;
        try {
          out[i] = await fn(items[i] as T, i);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    }),
  );
  return out;
}

export interface BenchServer {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** The server's own PostgreSQL database (created for it), when it runs on PostgreSQL. */
  databaseUrl?: string;
  /** Stops the server, removes its DATA_DIR and drops its database. */
  stop(): Promise<void>;
}

/** The built server bundle (`npm run build`), run by plain node as `npm start` runs it. */
export const SERVER_BUNDLE = 'apps/server/dist/main.js';

/** Node arguments that run the server: the bundle, or the sources through tsx (the default). */
export function serverEntry(entry: 'sources' | 'bundle' = 'sources'): string[] {
  return entry === 'bundle' ? [SERVER_BUNDLE] : ['--import', 'tsx', 'apps/server/src/main.ts'];
}

/**
 * The Cohort server as a child process on a free port with a fresh DATA_DIR: on PGlite there, or,
 * with `databaseUrl`, on a fresh database created on that PostgreSQL server (dropped by `stop`).
 * It runs as `npm run serve` runs it (its node flags and VAR=value pairs), then SERVER_ARGS: node
 * flags of a bench's own (a later flag wins, e.g. `SERVER_ARGS=--max-semi-space-size=16`).
 * PROFILE=<dir> writes a V8 CPU profile of the server there.
 */
export async function startServer(
  opts: {
    databaseUrl?: string;
    env?: Record<string, string>;
    prefix?: string;
    /** `bundle`: the build's apps/server/dist/main.js (npm run build) instead of the sources through tsx. */
    entry?: 'sources' | 'bundle';
    /** Another checkout to run (an older commit, as a baseline in the same run); this one by default. */
    root?: string;
    /** Node flags of this server's own, after SERVER_ARGS (a later flag wins). */
    args?: string[];
  } = {},
): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), opts.prefix ?? 'cohort-bench-'));
  let dropDb = async () => {};
  // An empty DATABASE_URL means PGlite in DATA_DIR, whatever this process's environment says.
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '' };
  if (opts.databaseUrl) {
    const name = `cohort_bench_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: opts.databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const dbUrl = new URL(opts.databaseUrl);
    dbUrl.pathname = `/${name}`;
    env.DATABASE_URL = dbUrl.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const profile = process.env.PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE}`] : [];
  const entry = serverEntry(opts.entry);
  const shipped = serveCommand();
  const extra = [...wordsOf(process.env.SERVER_ARGS), ...(opts.args ?? [])];
  const child = spawn(process.execPath, [...profile, ...shipped.args, ...extra, ...entry], {
    cwd: opts.root ?? repoRoot,
    env: {
      ...process.env,
      ...shipped.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await dropDb();
  };
  try {
    await waitReady(url, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, child, dataDir, stop, ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}) };
}

export interface BenchUser {
  email: string;
  token: string;
}

/**
 * `count` users who signed up, verified their address (DATA_DIR/outbox) and logged in, `limit` at a
 * time (argon2 makes sign-up slow); `tag` keeps their addresses apart from other runs.
 */
export async function signUpUsers(server: BenchServer, count: number, tag: string, limit = 4) {
  return pool(
    Array.from({ length: count }, (_, i) => i),
    limit,
    async (i): Promise<BenchUser> => {
      const email = `bench-${tag}-${i}@example.com`;
      const password = 'correct horse battery';
      await call(server.url, 'POST', '/api/signup', undefined, {
        firstName: 'Bench',
        lastName: `${i}`,
        email,
        password,
      });
      // Verified, so that they can accept a workspace's invitation.
      await verifyFromOutbox(server.url, server.dataDir, email);
      const { token } = await call<{ token: string }>(server.url, 'POST', '/api/login', undefined, {
        email,
        password,
      });
      return { email, token };
    },
  );
}

/**
 * A workspace `name` created by `owner` with every one of `members` invited with `role` and having
 * accepted (how anyone joins). Returns the workspace's id. Needs INVITATIONS_PER_HOUR above the
 * member count on the server beyond 250 invitations.
 */
export async function workspaceWithMembers(
  url: string,
  owner: BenchUser,
  members: BenchUser[],
  name: string,
  role: 'viewer' | 'editor' | 'admin',
  description = 'benchmark',
): Promise<string> {
  const { _id: workspaceId } = await call<{ _id: string }>(url, 'POST', '/api/workspaces', owner.token, {
    name,
    description,
    members: members.slice(0, 199).map((u) => ({ email: u.email, role })),
  });
  for (const u of members.slice(199)) {
    await call(url, 'POST', `/api/workspaces/${name}/members`, owner.token, { email: u.email, role });
  }
  await pool(members, 4, (u) => acceptInvitation(url, u.token, workspaceId));
  return workspaceId;
}

/**
 * `userCount` signed-up users in one new workspace (the first its owner, the rest viewers) with
 * `roomCount` open channels `room-0…`: the group-chat set-up of chat-latency and the ejabberd comparison.
 */
export async function seedChatRooms(
  server: BenchServer,
  userCount: number,
  roomCount: number,
  purpose: string,
) {
  const run = randomUUID().slice(0, 8);
  const users = await signUpUsers(server, userCount, run);
  const [owner, ...others] = users;
  if (!owner) throw new Error('no users');
  const workspaceName = `bench-${run}`;
  await workspaceWithMembers(server.url, owner, others, workspaceName, 'viewer', purpose);
  const channelIds = await pool(
    Array.from({ length: roomCount }, (_, i) => i),
    4,
    async (i) =>
      (
        await call<{ _id: string }>(
          server.url,
          'POST',
          `/api/workspaces/${workspaceName}/channels`,
          owner.token,
          {
            name: `room-${i}`,
            description: 'bench',
          },
        )
      )._id,
  );
  return { users, owner, workspaceName, channelIds };
}
