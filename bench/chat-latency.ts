// Channel chat send→deliver latency on one node: CLIENTS sockets across CHANNELS channels (10 per
// channel at the defaults), RATE messages/s in total for DURATION seconds, then a short saturation
// phase; server CPU (and, on PostgreSQL, the CPU of the server's database backends), idle RSS after
// start and RSS per idle connection read from /proc; and the same topology through a raw `ws` fan-out
// server as the floor of this machine.
//
//   node --import tsx bench/chat-latency.ts                         PGlite only
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/chat-latency.ts
//     PGlite and PostgreSQL side by side in one run (a fresh database is created on that server and
//     dropped afterwards), with the PGlite / PostgreSQL ratios; DATABASES=postgres runs one of them
//   CLIENTS=200 CHANNELS=20 RATE=100 DURATION=10 SATURATION=0 FLOOR=0 node --import tsx bench/chat-latency.ts
//   SERVER_ARGS=--max-semi-space-size=16 …          node flags for the server, after those of `npm run serve`
//   SERVER_ENV='MALLOC_TRIM_THRESHOLD_=131072' …    VAR=value pairs for the server, after those of `npm run serve`
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { io as connect, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import {
  cpuSeconds,
  databaseCpu,
  envOf,
  pool,
  repoRoot,
  report,
  seedChatRooms,
  sleep,
  startServer,
  summary,
  wordsOf,
} from './lib.ts';

const CLIENTS = Number(process.env.CLIENTS ?? 1000);
const CHANNELS = Number(process.env.CHANNELS ?? 100);
const RATE = Number(process.env.RATE ?? 200);
const DURATION = Number(process.env.DURATION ?? 20);
const SATURATION = Number(process.env.SATURATION ?? 5);
const USERS = Number(process.env.USERS ?? Math.max(1, Math.ceil(CLIENTS / 10)));
const DATABASE_URL = process.env.DATABASE_URL;
/** Which databases to run, in this order (PostgreSQL only with DATABASE_URL). */
const DATABASES = (process.env.DATABASES ?? (DATABASE_URL ? 'pglite,postgres' : 'pglite'))
  .split(',')
  .filter((d) => d === 'pglite' || (d === 'postgres' && DATABASE_URL));
const FLOOR = process.env.FLOOR !== '0';

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// The Cohort server

interface Measured {
  sent: number;
  deliveries: number;
  latencies: number[];
  ackLatencies: number[];
  errors: number;
  seconds: number;
  cpuPct: number;
  /** CPU of the server's PostgreSQL backends (0 on PGlite: the database runs inside the server). */
  dbCpuPct: number;
  /** CPU of this process (the clients), to tell a saturated load generator from a slow server. */
  clientCpuPct: number;
}

const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function benchCohort(databaseUrl: string | undefined) {
  // One owner invites every client: the per-person invitation budget would stop at 250.
  const server = await startServer({
    databaseUrl,
    // SERVER_ENV: VAR=value pairs for the server only (the load generator keeps its own).
    env: {
      INVITATIONS_PER_HOUR: '100000',
      ...envOf(wordsOf(process.env.SERVER_ENV)),
    },
    prefix: 'cohort-bench-chat-',
  });
  const { url } = server;
  const sockets: Socket[] = [];
  try {
    const pid = server.child.pid ?? 0;
    await sleep(2000);
    const idleRssKiB = rssKiB(pid);

    // Accounts (argon2 makes signup slow: USERS accounts, several sockets — tabs — each).
    console.log(`creating ${USERS} users, a workspace and ${CHANNELS} channels…`);
    const { users, owner, workspaceName, channelIds } = await seedChatRooms(
      server,
      USERS,
      CHANNELS,
      'chat latency benchmark',
    );

    await sleep(1000);
    const rssBefore = rssKiB(pid);
    console.log(`connecting ${CLIENTS} sockets…`);
    const channelOf: string[] = [];
    await pool(
      Array.from({ length: CLIENTS }, (_, i) => i),
      50,
      async (i) => {
        const user = users[i % users.length] ?? owner;
        const socket = connect(`${url}/chat`, {
          transports: ['websocket'],
          forceNew: true,
          reconnection: false,
          auth: { token: user.token },
        });
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        const channelId = channelIds[i % CHANNELS] ?? '';
        const ack = await socket.timeout(10_000).emitWithAck('joinChannel', { channelId, workspaceName });
        if (!ack.ok) throw new Error(`join refused: ${JSON.stringify(ack)}`);
        sockets[i] = socket;
        channelOf[i] = channelId;
      },
    );
    await sleep(2000);
    const rssAfter = rssKiB(pid);
    const rssPerConnKiB = (rssAfter - rssBefore) / CLIENTS;

    const latencies: number[] = [];
    let deliveries = 0;
    for (const s of sockets) {
      s.on('newMessage', (m: { content: string }) => {
        const sentAt = Number(m.content.slice(m.content.indexOf(':') + 1));
        latencies.push(performance.now() - sentAt);
        deliveries++;
      });
    }

    const sendOne = async (i: number, stats: { ack: number[]; errors: number; sent: number }) => {
      const socket = sockets[i];
      if (!socket) return;
      const sentAt = performance.now();
      stats.sent++;
      try {
        const ack = await socket.timeout(10_000).emitWithAck('sendMessage', {
          channelId: channelOf[i],
          workspaceName,
          clientId: randomUUID(),
          message: { content: `t:${sentAt}` },
        });
        if (ack.ok) stats.ack.push(performance.now() - sentAt);
        else stats.errors++;
      } catch {
        stats.errors++;
      }
    };

    // Phase 1: a steady RATE, senders spread round-robin over the sockets.
    console.log(`steady phase: ${RATE} msg/s for ${DURATION} s…`);
    const steady = { ack: [] as number[], errors: 0, sent: 0 };
    const dbCpu = await databaseCpu(server.databaseUrl);
    await dbCpu.start();
    const cpu0 = cpuSeconds(pid);
    const own0 = ownCpu();
    const start = performance.now();
    let scheduled = 0;
    let cursor = 0;
    const inflight: Promise<void>[] = [];
    while (performance.now() - start < DURATION * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * RATE);
      while (scheduled < due) {
        inflight.push(sendOne(cursor, steady));
        cursor = (cursor + 7) % CLIENTS; // a stride, so consecutive senders are in different channels
        scheduled++;
      }
      await sleep(2);
    }
    await Promise.all(inflight);
    await sleep(500);
    const steadySeconds = (performance.now() - start) / 1000;
    const steadyResult: Measured = {
      sent: steady.sent,
      deliveries,
      latencies: [...latencies],
      ackLatencies: steady.ack,
      errors: steady.errors,
      seconds: DURATION,
      cpuPct: ((cpuSeconds(pid) - cpu0) / steadySeconds) * 100,
      dbCpuPct: ((await dbCpu.seconds()) / steadySeconds) * 100,
      clientCpuPct: ((ownCpu() - own0) / steadySeconds) * 100,
    };

    // Phase 2: saturation. Every socket sends in a closed loop, at most one in flight, no faster
    // than the flood guard allows (20 per 5 s per socket).
    let saturationResult: Measured | null = null;
    if (SATURATION > 0) {
      console.log(`saturation phase: ${SATURATION} s…`);
      latencies.length = 0;
      deliveries = 0;
      const sat = { ack: [] as number[], errors: 0, sent: 0 };
      const cpu1 = cpuSeconds(pid);
      const own1 = ownCpu();
      const t0 = performance.now();
      const end = t0 + SATURATION * 1000;
      await Promise.all(
        sockets.map(async (_, i) => {
          await sleep(Math.random() * 250);
          while (performance.now() < end) {
            const began = performance.now();
            await sendOne(i, sat);
            const wait = 260 - (performance.now() - began);
            if (wait > 0) await sleep(wait);
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      await sleep(500);
      saturationResult = {
        sent: sat.sent,
        deliveries,
        latencies: [...latencies],
        ackLatencies: sat.ack,
        errors: sat.errors,
        seconds,
        cpuPct: ((cpuSeconds(pid) - cpu1) / seconds) * 100,
        dbCpuPct: 0,
        clientCpuPct: ((ownCpu() - own1) / seconds) * 100,
      };
    }
    return { steady: steadyResult, saturation: saturationResult, rssPerConnKiB, idleRssKiB };
  } finally {
    for (const s of sockets) s?.close();
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// The floor: a raw `ws` server fanning each message out to its room, no database, no Socket.IO.

const FLOOR_SERVER = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const rooms = new Map();
wss.on('listening', () => process.send(wss.address().port));
wss.on('connection', (ws, req) => {
  const room = new URL(req.url, 'http://x').searchParams.get('room');
  if (!rooms.has(room)) rooms.set(room, new Set());
  rooms.get(room).add(ws);
  ws.on('message', (data) => {
    const text = data.toString();
    for (const peer of rooms.get(room)) peer.send(text);
  });
  ws.on('close', () => rooms.get(room).delete(ws));
});
`;

async function benchFloor(): Promise<{ result: Measured; rssPerConnKiB: number }> {
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(Number(p))));
  const pid = child.pid ?? 0;
  const sockets: WebSocket[] = [];
  try {
    await sleep(500);
    const rssBefore = rssKiB(pid);
    await pool(
      Array.from({ length: CLIENTS }, (_, i) => i),
      50,
      async (i) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/?room=${i % CHANNELS}`);
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        sockets[i] = ws;
      },
    );
    await sleep(2000);
    const rssPerConnKiB = (rssKiB(pid) - rssBefore) / CLIENTS;
    const latencies: number[] = [];
    for (const ws of sockets) {
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { t: number };
        latencies.push(performance.now() - m.t);
      });
    }
    const cpu0 = cpuSeconds(pid);
    const own0 = ownCpu();
    const start = performance.now();
    let scheduled = 0;
    let cursor = 0;
    while (performance.now() - start < DURATION * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * RATE);
      while (scheduled < due) {
        sockets[cursor]?.send(JSON.stringify({ t: performance.now(), content: 'x'.repeat(40) }));
        cursor = (cursor + 7) % CLIENTS;
        scheduled++;
      }
      await sleep(2);
    }
    await sleep(500);
    const seconds = (performance.now() - start) / 1000;
    return {
      result: {
        sent: scheduled,
        deliveries: latencies.length,
        latencies,
        ackLatencies: [],
        errors: 0,
        seconds: DURATION,
        cpuPct: ((cpuSeconds(pid) - cpu0) / seconds) * 100,
        dbCpuPct: 0,
        clientCpuPct: ((ownCpu() - own0) / seconds) * 100,
      },
      rssPerConnKiB,
    };
  } finally {
    for (const ws of sockets) ws?.close();
    child.kill('SIGTERM');
  }
}

// ---------------------------------------------------------------------------------------------------

const label = (d: string) => (d === 'postgres' ? 'PostgreSQL' : 'PGlite');
console.log(
  `chat-latency: ${CLIENTS} clients (${USERS} users), ${CHANNELS} channels, ${RATE} msg/s, ${DURATION} s, ${DATABASES.map(label).join(' then ')}`,
);
const runs: Array<{ db: string; result: Awaited<ReturnType<typeof benchCohort>> }> = [];
for (const d of DATABASES)
  runs.push({ db: label(d), result: await benchCohort(d === 'postgres' ? DATABASE_URL : undefined) });
const floor = FLOOR ? await benchFloor() : null;

const row = (name: string, m: Measured, rssPerConnKiB: number | null, idleRssKiB: number | null) => ({
  case: name,
  clients: CLIENTS,
  channels: CHANNELS,
  sent: m.sent,
  errors: m.errors,
  deliveries: m.deliveries,
  deliveries_per_s: Math.round(m.deliveries / m.seconds),
  ...summary(m.latencies),
  ack_p50_ms: summary(m.ackLatencies).p50_ms,
  ack_p99_ms: summary(m.ackLatencies).p99_ms,
  server_cpu_pct: Math.round(m.cpuPct),
  db_cpu_pct: Math.round(m.dbCpuPct),
  client_cpu_pct: Math.round(m.clientCpuPct),
  idle_rss_mib: idleRssKiB === null ? '' : Math.round(idleRssKiB / 1024),
  rss_per_conn_kib: rssPerConnKiB === null ? '' : Math.round(rssPerConnKiB * 10) / 10,
});

const rows = runs.flatMap(({ db, result }) => [
  row(`cohort ${db}, steady ${RATE} msg/s`, result.steady, result.rssPerConnKiB, result.idleRssKiB),
  ...(result.saturation ? [row(`cohort ${db}, saturation`, result.saturation, null, null)] : []),
]);
if (floor) rows.push(row(`raw ws fan-out floor, ${RATE} msg/s`, floor.result, floor.rssPerConnKiB, null));
report('chat-latency', rows);

const lite = runs.find((r) => r.db === 'PGlite')?.result;
const pgRun = runs.find((r) => r.db === 'PostgreSQL')?.result;
if (lite && pgRun) {
  const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : NaN);
  const p99 = (m: Measured) => summary(m.latencies).p99_ms;
  report('chat-latency-ratios', [
    {
      'PGlite / PostgreSQL': 'steady phase',
      server_cpu: ratio(lite.steady.cpuPct, pgRun.steady.cpuPct),
      server_cpu_vs_server_plus_db: ratio(lite.steady.cpuPct, pgRun.steady.cpuPct + pgRun.steady.dbCpuPct),
      delivery_p99: ratio(p99(lite.steady), p99(pgRun.steady)),
      idle_rss: ratio(lite.idleRssKiB, pgRun.idleRssKiB),
    },
  ]);
}
console.log(
  `load average during the run: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} CPUs`,
);
process.exit(0);
