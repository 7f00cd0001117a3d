// Direct messages: PAIRS pairs of colleagues, each sender on its own `/dm` socket writing to its
// partner, RATE messages/s in all for DURATION s per window, ROUNDS windows per server, alternating
// (all servers up at once, so that each sees the same machine). Reports send →
// acknowledgement and send → the receiver's copy (p50/p99), the server's CPU per message (with its
// PostgreSQL backends') and, on PostgreSQL, the database's transactions per message (pg_stat_database).
//
//   node --import tsx bench/direct-latency.ts                     Cohort on PGlite
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres SERVERS=cohort,cohort-pglite node --import tsx bench/direct-latency.ts
//   BASELINE=/tmp/before SERVERS=cohort,baseline,cohort-pglite,baseline-pglite ROUNDS=5 …
//     (BASELINE: another checkout with node_modules linked in and its bundle built, run side by side)
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import {
  type BenchServer,
  cpuSeconds,
  databaseCpu,
  median,
  pool,
  report,
  signUpUsers,
  sleep,
  startServer,
  summary,
  workspaceWithMembers,
} from './lib.ts';

const PAIRS = Number(process.env.PAIRS ?? 40);
// 2 messages/s per sender at the defaults: under the per-user limit (SEND_RATE_LIMIT per 5 s).
const RATE = Number(process.env.RATE ?? 80);
const DURATION = Number(process.env.DURATION ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SERVERS = (process.env.SERVERS ?? 'cohort-pglite').split(',');
const BASELINE = process.env.BASELINE;
if (SERVERS.some((s) => s.startsWith('baseline')) && !BASELINE)
  throw new Error('baseline servers need BASELINE');

interface Side {
  name: string;
  server: BenchServer;
  senders: Socket[];
  receivers: Socket[];
  partners: string[];
  /** Transactions committed in the server's database so far (NaN on PGlite). */
  commits(): Promise<number>;
}

const arrivals = new Map<string, (at: number) => void>();

async function socketOf(url: string, token: string) {
  const socket = connect(`${url}/dm`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function startSide(name: string): Promise<Side> {
  const onPostgres = !name.endsWith('-pglite');
  const server = await startServer({
    entry: 'bundle',
    ...(onPostgres && { databaseUrl: DATABASE_URL }),
    ...(name.startsWith('baseline') && { root: BASELINE }),
  });
  const run = randomUUID().slice(0, 8);
  const users = await signUpUsers(server, PAIRS * 2, run);
  const [owner, ...others] = users;
  if (!owner) throw new Error('no users');
  await workspaceWithMembers(server.url, owner, others, `dm-${run}`, 'editor', 'direct-latency');
  const senders = await pool(users.slice(0, PAIRS), 10, (u) => socketOf(server.url, u.token));
  const receivers = await pool(users.slice(PAIRS), 10, (u) => socketOf(server.url, u.token));
  for (const r of receivers)
    r.on('newMessage', (m: { content: string }) => arrivals.get(m.content)?.(performance.now()));
  const databaseUrl = server.databaseUrl;
  return {
    name,
    server,
    senders,
    receivers,
    partners: users.slice(PAIRS).map((u) => u.email),
    async commits() {
      if (!databaseUrl) return Number.NaN;
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      const { rows } = await c.query<{ n: string }>(
        'select xact_commit as n from pg_stat_database where datname = current_database()',
      );
      await c.end();
      return Number(rows[0]?.n ?? 0);
    },
  };
}

async function window(side: Side) {
  const acks: number[] = [];
  const deliveries: number[] = [];
  const commits0 = await side.commits();
  const db = await databaseCpu(side.server.databaseUrl);
  await db.start();
  const pid = side.server.child.pid ?? 0;
  const cpu0 = cpuSeconds(pid);
  const send = async (i: number) => {
    const content = randomUUID();
    const start = performance.now();
    const delivered = new Promise<void>((resolve) =>
      arrivals.set(content, (at) => {
        deliveries.push(at - start);
        resolve();
      }),
    );
    const ack = await side.senders[i]?.timeout(10_000).emitWithAck('sendMessage', {
      receiverEmail: side.partners[i],
      clientId: randomUUID(),
      content,
      messageType: 'text',
    });
    if (!ack?.ok) throw new Error(`refused: ${JSON.stringify(ack)}`);
    acks.push(performance.now() - start);
    await delivered;
    arrivals.delete(content);
  };
  // Open loop, RATE messages/s round-robin over the senders (each under the per-user send limit).
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  for (let sent = 0; performance.now() - start < DURATION * 1000; ) {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE);
    for (; sent < due; sent++) inflight.push(send(sent % PAIRS));
    await sleep(2);
  }
  await Promise.all(inflight);
  const cpu = cpuSeconds(pid) - cpu0 + (await db.seconds());
  // pg_stat_database is flushed about a second late.
  await new Promise((r) => setTimeout(r, 1500));
  const commits = (await side.commits()) - commits0;
  const a = summary(acks);
  const d = summary(deliveries);
  return {
    server: side.name,
    messages: acks.length,
    ack_p50_ms: a.p50_ms,
    ack_p99_ms: a.p99_ms,
    delivery_p50_ms: d.p50_ms,
    delivery_p99_ms: d.p99_ms,
    cpu_ms_per_msg: Math.round((cpu / acks.length) * 1e6) / 1e3,
    // Less the two reads of the commit count; the CPU sampler's reads (every 500 ms) add ~0.03.
    transactions_per_msg: Math.round(((commits - 2) / acks.length) * 100) / 100,
  };
}

console.log(
  `direct messages: ${PAIRS} pairs, ${RATE} msg/s, ${DURATION} s × ${ROUNDS} rounds; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} CPUs`,
);
const sides: Side[] = [];
try {
  for (const name of SERVERS) {
    console.log(`${name}…`);
    sides.push(await startSide(name));
  }
  const rows: Record<string, string | number>[] = [];
  for (let round = 1; round <= ROUNDS; round++)
    for (const side of sides) {
      console.log(`round ${round}: ${side.name}…`);
      rows.push({ round, ...(await window(side)) });
    }
  report('direct-latency', rows);
  const medians = SERVERS.map((name) => {
    const mine = rows.filter((r) => r.server === name);
    const of = (k: string) => median(mine.map((r) => Number(r[k])));
    return {
      server: `${name}, median of ${ROUNDS}`,
      ack_p50_ms: of('ack_p50_ms'),
      ack_p99_ms: of('ack_p99_ms'),
      delivery_p50_ms: of('delivery_p50_ms'),
      delivery_p99_ms: of('delivery_p99_ms'),
      cpu_ms_per_msg: of('cpu_ms_per_msg'),
      transactions_per_msg: of('transactions_per_msg'),
    };
  });
  report('direct-latency-medians', medians);
} finally {
  for (const side of sides) {
    for (const s of [...side.senders, ...side.receivers]) s.close();
    await side.server.stop();
  }
}
