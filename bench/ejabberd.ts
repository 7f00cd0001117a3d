// Cohort against ejabberd (issue 21) on the same work: CLIENTS clients in ROOMS group-chat rooms
// (10 members each at the defaults), RATE messages/s in total for DURATION seconds, every message
// stored in PostgreSQL: Cohort in a fresh database of its own, ejabberd (Debian's 23.01, MUC rooms
// archived by mod_mam) in another fresh database on the same server. Both servers are up at once and
// their measured windows alternate, ROUNDS times, so that both see the same machine. `cohort-pglite`
// adds Cohort on its embedded database (PGlite in the server's own process, so its CPU is the
// server's), with ratios of each Cohort against ejabberd.
//
//   apt-get install -y ejabberd erlang-p1-pgsql   (the package only suggests its PostgreSQL driver)
//   (as root: ejabberdctl runs the node as the `ejabberd` user, which must own its temp dir)
//   node --import tsx bench/ejabberd.ts
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres ROUNDS=3 node --import tsx bench/ejabberd.ts
//   CLIENTS=100 ROOMS=10 RATE=20 DURATION=5 SERVERS=ejabberd node --import tsx bench/ejabberd.ts
//   SERVERS=cohort,cohort-pglite,ejabberd ROUNDS=3 node --import tsx bench/ejabberd.ts
//   ERL_OPTIONS='+sbwt none +sbwtdcpu none +sbwtdio none' node --import tsx bench/ejabberd.ts
//   BASELINE=/tmp/before SERVERS=cohort,baseline,cohort-pglite,baseline-pglite,ejabberd ROUNDS=3 …
//     (BASELINE: another checkout, e.g. `git worktree add /tmp/before <commit>` with node_modules
//     linked in and apps/server/.cache copied in, run side by side as "Baseline" to measure a change
//     in the same run; without the PGlite template its clusters start by initdb, which warms PGlite's
//     thread and shortens its first 10,000 stores' tail: docs/performance.md, "Session 26")
//   BASELINE_ARGS=--memory-reducer SERVERS=cohort,baseline,… …
//     node flags for the baseline sides only, after the shipped ones (a later flag wins): without
//     BASELINE the baseline is this checkout, so a flag is measured against the build as shipped
//
// Delivery latency is send → each other member of the room receives it (the sender's own copy is not
// counted). CPU is the server process's (/proc/<pid>/stat) plus that of the PostgreSQL backends
// serving its database, over the window (PGlite's thread is inside the server process).
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Socket as TcpSocket, connect as tcpConnect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import {
  type BenchServer,
  cpuSeconds,
  databaseCpu,
  freePort,
  pool,
  report,
  seedChatRooms,
  sleep,
  startServer,
  summary,
  wordsOf,
} from './lib.ts';

const CLIENTS = Number(process.env.CLIENTS ?? 1000);
const ROOMS = Number(process.env.ROOMS ?? 100);
const RATE = Number(process.env.RATE ?? 200);
const DURATION = Number(process.env.DURATION ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
// As in chat-latency: a tenth as many accounts as clients, each signed in from several clients.
const USERS = Number(process.env.USERS ?? Math.max(1, Math.ceil(CLIENTS / 10)));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SERVERS = (process.env.SERVERS ?? 'cohort,ejabberd').split(',');
const BASELINE = process.env.BASELINE;
const BASELINE_ARGS = wordsOf(process.env.BASELINE_ARGS);
if (SERVERS.some((s) => s.startsWith('baseline')) && !BASELINE && BASELINE_ARGS.length === 0)
  throw new Error('baseline servers need BASELINE or BASELINE_ARGS');
// Extra flags for ejabberd's Erlang VM, e.g. "+sbwt none +sbwtdcpu none +sbwtdio none": its
// schedulers spin while waiting for work by default, and that spinning shows as CPU in /proc.
const ERL_OPTIONS = process.env.ERL_OPTIONS ?? '';

/** One server under test: its clients, the process and the database to measure. */
interface Side {
  name: string;
  pid: number;
  /** Empty for Cohort on PGlite: its database is in its own process. */
  databaseUrl: string;
  /** Messages stored so far, with the database's commits and rows written where it can tell. */
  stored(): Promise<Stored>;
  /** Client `i` sends `body` to its room; false when the server refused it. */
  send(i: number, body: string): Promise<boolean>;
  /** Error stanzas seen so far (ejabberd: MUC answers a refused message with one). */
  errorStanzas(): number;
}

/**
 * What to undo — servers, temp dirs, databases — registered as soon as it exists, so that a failure
 * or Ctrl-C half-way through set-up still cleans up.
 */
const cleanups = new Set<() => Promise<void>>();
async function cleanUp() {
  for (const stop of cleanups) await stop().catch((e) => console.error(e));
  cleanups.clear();
}

/** Deliveries seen by the clients, shared by both sides: the body is "<sender> <performance.now()>". */
const tally = { latencies: [] as number[], deliveries: 0 };
function delivered(receiver: number, body: string) {
  const [sender, sentAt] = body.split(' ');
  if (Number(sender) === receiver) return; // the sender's own copy is not a delivery
  tally.latencies.push(performance.now() - Number(sentAt));
  tally.deliveries++;
}

// ---------------------------------------------------------------------------------------------------
// Cohort: the same set-up as bench/chat-latency.ts (users, one workspace, ROOMS channels, socket.io).

async function cohort(
  name: string,
  databaseUrl: string | undefined,
  baseline?: { root?: string; args: string[] },
): Promise<Side> {
  const server: BenchServer = await startServer({
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(baseline?.root ? { root: baseline.root } : {}),
    ...(baseline ? { args: baseline.args } : {}),
    env: { INVITATIONS_PER_HOUR: '100000' },
    prefix: 'cohort-bench-ejabberd-',
  });
  const sockets: Socket[] = [];
  cleanups.add(async () => {
    for (const s of sockets) s?.close();
    await server.stop();
  });
  const { url } = server;
  console.log(`${name}: ${USERS} users, ${ROOMS} channels, ${CLIENTS} sockets…`);
  const { users, owner, workspaceName, channelIds } = await seedChatRooms(
    server,
    USERS,
    ROOMS,
    'ejabberd comparison',
  );
  await pool(
    Array.from({ length: CLIENTS }, (_, i) => i),
    50,
    async (i) => {
      const socket = connect(`${url}/chat`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: { token: (users[i % users.length] ?? owner).token },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = await socket
        .timeout(10_000)
        .emitWithAck('joinChannel', { channelId: channelIds[i % ROOMS], workspaceName });
      if (!ack.ok) throw new Error(`join refused: ${JSON.stringify(ack)}`);
      socket.on('newMessage', (m: { content: string }) => delivered(i, m.content));
      sockets[i] = socket;
    },
  );
  // PGlite is only reachable through its server: there the stored count is the acknowledged one
  // (a message is acknowledged once it is stored).
  let acknowledged = 0;
  const ownDatabase = server.databaseUrl ?? '';
  return {
    name,
    pid: server.child.pid ?? 0,
    databaseUrl: ownDatabase,
    stored: async () =>
      ownDatabase
        ? storedIn(ownDatabase, 'select count(*)::int as n from channel_messages')
        : { n: acknowledged, commits: Number.NaN, written: Number.NaN },
    async send(i, body) {
      try {
        const ack = await sockets[i]?.timeout(10_000).emitWithAck('sendMessage', {
          channelId: channelIds[i % ROOMS],
          workspaceName,
          clientId: randomUUID(),
          message: { content: body },
        });
        if (ack?.ok) acknowledged++;
        return Boolean(ack?.ok);
      } catch {
        return false;
      }
    },
    errorStanzas: () => 0,
  };
}

// ---------------------------------------------------------------------------------------------------
// ejabberd: our own node (not the system service), its own config, spool and logs in a temp dir.

const HOST = 'localhost';
const MUC = `conference.${HOST}`;
const PASSWORD = 'bench-password';

function ejabberdConfig(port: number, database: string) {
  const db = new URL(DATABASE_URL);
  // Only what the work needs: c2s without TLS, SQL for everything stored, MUC + MAM.
  return `hosts: [${HOST}]
loglevel: warning
default_db: sql
sql_type: pgsql
sql_server: ${db.hostname}
sql_port: ${db.port || 5432}
sql_database: ${database}
sql_username: ${decodeURIComponent(db.username) || 'postgres'}
sql_password: "${decodeURIComponent(db.password)}"
new_sql_schema: true
auth_method: sql
listen:
  - port: ${port}
    ip: 127.0.0.1
    module: ejabberd_c2s
    starttls: false
    starttls_required: false
    max_stanza_size: 65536
access_rules:
  c2s: {allow: all}
  muc_create: {allow: all}
api_permissions:
  "console commands":
    from: [ejabberd_ctl]
    who: all
    what: "*"
modules:
  mod_muc:
    host: ${MUC}
    access_create: muc_create
    default_room_options:
      persistent: true
      mam: true
  mod_muc_admin: {}
  mod_mam:
    db_type: sql
    default: always
`;
}

/** A minimal XMPP client over plain TCP: SASL PLAIN, bind, join one MUC room, groupchat messages. */
class Xmpp {
  private buffer = '';
  private waiter: { re: RegExp; resolve: (m: RegExpMatchArray) => void } | null = null;
  private onBody: ((body: string) => void) | null = null;
  errors = 0;
  private constructor(private socket: TcpSocket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.data(chunk));
    socket.on('error', () => this.errors++); // a reset socket must not crash the bench
  }

  static async join(port: number, user: string, resource: string, room: string, nick: string) {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await once(socket, 'connect');
    const x = new Xmpp(socket);
    const header = `<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='${HOST}' version='1.0'>`;
    x.write(header);
    await x.until(/<\/stream:features>/);
    const plain = Buffer.from(`\0${user}\0${PASSWORD}`).toString('base64');
    x.write(`<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${plain}</auth>`);
    if ((await x.until(/<(success|failure)/))[1] !== 'success') throw new Error(`auth failed for ${user}`);
    x.write(header); // a new stream after SASL
    await x.until(/<\/stream:features>/);
    x.write(
      `<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>${resource}</resource></bind></iq>`,
    );
    if (!(await x.until(/<iq[^>]*type=['"](result|error)['"]/))[0].includes('result'))
      throw new Error('bind failed');
    // Join with no history, as a Cohort socket joins a channel without its backlog.
    x.write(
      `<presence to='${room}@${MUC}/${nick}'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>`,
    );
    const joined = await x.until(/code=['"]110['"]|type=['"]error['"]/);
    if (joined[0].includes('error')) throw new Error(`join of ${room} failed`);
    return x;
  }

  private data(chunk: string) {
    this.buffer += chunk;
    if (this.waiter) {
      const m = this.buffer.match(this.waiter.re);
      if (m) {
        this.buffer = this.buffer.slice((m.index ?? 0) + m[0].length);
        const { resolve } = this.waiter;
        this.waiter = null;
        resolve(m);
      }
      return;
    }
    if (!this.onBody) return;
    // Not a parser: the only stanzas with a <body> are the room's messages, and the body is digits.
    const re = /<body>([^<]*)<\/body>|type=['"]error['"]/g;
    let end = 0;
    for (const m of this.buffer.matchAll(re)) {
      if (m[1] === undefined) this.errors++;
      else this.onBody(m[1]);
      end = (m.index ?? 0) + m[0].length;
    }
    this.buffer = this.buffer.slice(end).slice(-64); // keep a tag cut between two chunks
  }

  private until(re: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timeout waiting for ${re}: ${this.buffer.slice(0, 300)}`)),
        timeoutMs,
      );
      this.waiter = {
        re,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.data(''); // it may be in the buffer already
    });
  }

  listen(onBody: (body: string) => void) {
    this.onBody = onBody;
    this.data('');
  }

  write(text: string) {
    this.socket.write(text);
  }

  close() {
    this.socket.end('</stream:stream>');
  }
}

async function ejabberd(): Promise<Side> {
  if (!existsSync('/usr/sbin/ejabberdctl'))
    throw new Error('ejabberd is not installed: apt-get install -y ejabberd erlang-p1-pgsql');
  const dir = mkdtempSync(join(tmpdir(), 'cohort-bench-ejabberd-'));
  const database = `ejabberd_bench_${randomUUID().replaceAll('-', '')}`;
  const node = `ejbench${randomUUID().slice(0, 8)}@localhost`;
  const port = await freePort();
  const ctl = (...args: string[]) =>
    promisify(execFile)(
      '/usr/sbin/ejabberdctl',
      ['-n', node, '-d', dir, '-s', join(dir, 'spool'), '-l', join(dir, 'logs'), ...args],
      {
        timeout: 120_000,
      },
    );
  const admin = async (sql: string, url = DATABASE_URL) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const dbUrl = new URL(DATABASE_URL);
  dbUrl.pathname = `/${database}`;
  const clients: Xmpp[] = [];
  let pid = 0;
  cleanups.add(async () => {
    for (const c of clients) c?.close();
    // Also when start-up failed half-way: the node may be up without our having read its pid.
    const pidFile = join(dir, 'ejabberd.pid');
    if (!pid && existsSync(pidFile)) pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (existsSync(join(dir, 'spool'))) await ctl('stop').catch(() => {});
    if (pid) {
      for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await sleep(100);
      if (existsSync(`/proc/${pid}`)) process.kill(pid, 'SIGKILL'); // only the node this bench started
    }
    rmSync(dir, { recursive: true, force: true });
    await admin(`drop database if exists ${database} with (force)`).catch((e) => console.error(e));
  });
  try {
    // ejabberd 23.01 does not create its PostgreSQL schema: the package's new-schema file does.
    await admin(`create database ${database}`);
    await admin(readFileSync('/usr/share/ejabberd/sql/pg.new.sql', 'utf8'), dbUrl.toString());
    mkdirSync(join(dir, 'spool'));
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'ejabberd.yml'), ejabberdConfig(port, database));
    // su resets the open-file limit to 1024, short of CLIENTS sockets: the node's erl raises it again.
    writeFileSync(join(dir, 'erl'), '#!/bin/sh\nulimit -n "$(ulimit -Hn)"\nexec /usr/bin/erl "$@"\n', {
      mode: 0o755,
    });
    writeFileSync(
      join(dir, 'ejabberdctl.cfg'),
      `EJABBERD_PID_PATH=${join(dir, 'ejabberd.pid')}\nERL=${join(dir, 'erl')}\nERL_OPTIONS="${ERL_OPTIONS}"\n`,
    );
    writeFileSync(join(dir, 'inetrc'), readFileSync('/etc/ejabberd/inetrc'));
    execFileSync('chown', ['-R', 'ejabberd:ejabberd', dir]); // ejabberdctl runs the node as that user
    console.log(`ejabberd: node ${node} on 127.0.0.1:${port}, database ${database}…`);
    await ctl('start');
    await ctl('started');
    pid = Number(readFileSync(join(dir, 'ejabberd.pid'), 'utf8').trim());
    await pool(
      Array.from({ length: USERS }, (_, u) => u),
      4,
      (u) => ctl('register', `u${u}`, HOST, PASSWORD),
    );
    // Persistent rooms (default_room_options) created up front, in one call.
    writeFileSync(
      join(dir, 'rooms.txt'),
      Array.from({ length: ROOMS }, (_, r) => `room${r}@${MUC}\n`).join(''),
    );
    execFileSync('chown', ['ejabberd:ejabberd', join(dir, 'rooms.txt')]);
    await ctl('create_rooms_file', join(dir, 'rooms.txt'));
    console.log(`ejabberd: ${USERS} users, ${ROOMS} rooms, ${CLIENTS} clients…`);
    await pool(
      Array.from({ length: CLIENTS }, (_, i) => i),
      50,
      async (i) => {
        const client = await Xmpp.join(port, `u${i % USERS}`, `r${i}`, `room${i % ROOMS}`, `n${i}`);
        clients[i] = client;
        client.listen((body) => delivered(i, body));
      },
    );
    return {
      name: 'ejabberd',
      pid,
      databaseUrl: dbUrl.toString(),
      stored: () => storedIn(dbUrl.toString(), 'select count(*)::int as n from archive'),
      async send(i, body) {
        clients[i]?.write(
          `<message to='room${i % ROOMS}@${MUC}' type='groupchat'><body>${body}</body></message>`,
        );
        return true; // MUC has no acknowledgement: refusals come back as error stanzas
      },
      errorStanzas: () => clients.reduce((n, c) => n + (c?.errors ?? 0), 0),
    };
  } catch (err) {
    console.error(`ejabberd logs in ${dir}/logs:`, readLogs(dir));
    throw err;
  }
}

function readLogs(dir: string) {
  try {
    return readFileSync(join(dir, 'logs', 'ejabberd.log'), 'utf8').slice(-3000);
  } catch {
    return '(none)';
  }
}

// ---------------------------------------------------------------------------------------------------
// One measured window: RATE msg/s for DURATION s, senders round-robin with a stride (as chat-latency).

interface Stored {
  n: number;
  commits: number;
  written: number;
}

/** Rows `countSql` counts, and the database's commits and rows written (pg_stat_database, flushed ~1 s late). */
async function storedIn(databaseUrl: string, countSql: string): Promise<Stored> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const n = (await c.query<{ n: number }>(countSql)).rows[0]?.n ?? 0;
  const { rows } = await c.query<{ commits: string; written: string }>(
    `select xact_commit as commits, tup_inserted + tup_updated + tup_deleted as written
       from pg_stat_database where datname = current_database()`,
  );
  await c.end();
  return { n, commits: Number(rows[0]?.commits ?? 0), written: Number(rows[0]?.written ?? 0) };
}

async function window(side: Side) {
  tally.latencies = [];
  tally.deliveries = 0;
  let refused = 0;
  const stored0 = await side.stored();
  const errors0 = side.errorStanzas();
  const dbCpu = await databaseCpu(side.databaseUrl);
  await dbCpu.start();
  const cpu0 = cpuSeconds(side.pid);
  // The clients share this process: its CPU and event-loop delay tell a slow client from a slow server.
  const own0 = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const start = performance.now();
  let sent = 0;
  let cursor = 0;
  const inflight: Promise<void>[] = [];
  while (performance.now() - start < DURATION * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE);
    for (; sent < due; sent++) {
      const i = cursor;
      inflight.push(
        side.send(i, `${i} ${performance.now()}`).then((ok) => {
          if (!ok) refused++;
        }),
      );
      cursor = (cursor + 7) % CLIENTS; // consecutive senders in different rooms
    }
    await sleep(2);
  }
  await Promise.all(inflight);
  // Let the last deliveries arrive: until none came in 500 ms (at most 10 s).
  for (let last = -1, i = 0; last !== tally.deliveries && i < 20; i++) {
    last = tally.deliveries;
    await sleep(500);
  }
  const seconds = (performance.now() - start) / 1000;
  const serverCpu = cpuSeconds(side.pid) - cpu0;
  const dbSeconds = await dbCpu.seconds();
  loop.disable();
  const own = process.cpuUsage(own0);
  await sleep(1500); // backends report their statistics at most once a second
  const stored1 = await side.stored();
  const storedN = stored1.n - stored0.n;
  const s = summary(tally.latencies);
  return {
    server: side.name,
    clients: CLIENTS,
    msg_per_s: RATE,
    sent,
    refused: refused + side.errorStanzas() - errors0,
    stored: storedN,
    deliveries: tally.deliveries,
    expected: sent * (Math.round(CLIENTS / ROOMS) - 1),
    p50_ms: s.p50_ms,
    p99_ms: s.p99_ms,
    server_cpu_pct: Math.round((serverCpu / seconds) * 1000) / 10,
    db_cpu_pct: Math.round((dbSeconds / seconds) * 1000) / 10,
    cpu_ms_per_1k_deliveries: Math.round(((serverCpu + dbSeconds) / tally.deliveries) * 1e6 * 10) / 10,
    db_cpu_ms_per_msg: Math.round((dbSeconds / storedN) * 1e3 * 1000) / 1000,
    // What the database did per message (approximate: includes our own few count queries).
    commits_per_msg: Math.round(((stored1.commits - stored0.commits) / storedN) * 100) / 100,
    rows_written_per_msg: Math.round(((stored1.written - stored0.written) / storedN) * 100) / 100,
    client_cpu_pct: Math.round(((own.user + own.system) / 1e6 / seconds) * 1000) / 10,
    client_loop_max_ms: Math.round(loop.max / 1e5) / 10,
    load1: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

// ---------------------------------------------------------------------------------------------------

console.log(
  `ejabberd comparison: ${CLIENTS} clients (${USERS} users), ${ROOMS} rooms, ${RATE} msg/s, ${DURATION} s × ${ROUNDS} rounds; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} CPUs`,
);
// A stray rejection must not end the process before the servers are stopped and the databases dropped.
process.on('unhandledRejection', (err) => console.error('unhandled:', err));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void cleanUp().then(() => process.exit(1)));
const sides: Side[] = [];
const rows: Awaited<ReturnType<typeof window>>[] = [];
try {
  if (SERVERS.includes('cohort')) sides.push(await cohort('Cohort', DATABASE_URL));
  const baseline = { ...(BASELINE ? { root: BASELINE } : {}), args: BASELINE_ARGS };
  if (SERVERS.includes('baseline')) sides.push(await cohort('Baseline', DATABASE_URL, baseline));
  if (SERVERS.includes('cohort-pglite')) sides.push(await cohort('Cohort on PGlite', undefined));
  if (SERVERS.includes('baseline-pglite'))
    sides.push(await cohort('Baseline on PGlite', undefined, baseline));
  if (SERVERS.includes('ejabberd')) sides.push(await ejabberd());
  await sleep(3000); // let joins settle
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which server goes first, so that neither always gets the quieter minute.
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      console.log(`round ${round + 1}: ${side.name}…`);
      rows.push(await window(side));
    }
  }
} finally {
  await cleanUp();
}
report('ejabberd', rows);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const of = (name: string, key: keyof (typeof rows)[number]) =>
  median(rows.filter((r) => r.server === name).map((r) => Number(r[key])));
const cohorts = sides.map((side) => side.name).filter((name) => name !== 'ejabberd');
if (SERVERS.includes('ejabberd') && cohorts.length > 0) {
  const ratio = (name: string, key: keyof (typeof rows)[number]) =>
    Math.round((of(name, key) / of('ejabberd', key)) * 100) / 100;
  report(
    'ejabberd-ratios',
    cohorts.map((name) => ({
      'against ejabberd': `${name}, median of ${ROUNDS} rounds`,
      delivery_p50: ratio(name, 'p50_ms'),
      delivery_p99: ratio(name, 'p99_ms'),
      server_cpu: ratio(name, 'server_cpu_pct'),
      db_cpu: ratio(name, 'db_cpu_pct'),
      cpu_per_delivery_incl_db: ratio(name, 'cpu_ms_per_1k_deliveries'),
      db_cpu_per_message: ratio(name, 'db_cpu_ms_per_msg'),
    })),
  );
}
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
process.exit(0);
