// Server memory per idle connection: a fresh server process (PGlite), USERS signed-in accounts,
// then N authenticated socket.io-client connections to the chat namespace (websocket transport,
// session token in the handshake, as a browser tab holds one) that do nothing. Per N:
// (RSS with the sockets open − RSS before) / N, RSS read from /proc after the process settles.
// One server per N, so the figures do not inherit each other's heap growth.
//
//   node --import tsx bench/idle-memory.ts
//   COUNTS=1000,5000 USERS=20 node --import tsx bench/idle-memory.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { freePort } from '../scripts/local-services.ts';
import { repoRoot, report } from './lib.ts';

const COUNTS = (process.env.COUNTS ?? '1000,5000').split(',').map(Number);
const USERS = Number(process.env.USERS ?? 20);
const PASSWORD = 'correct horse battery staple';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssKiB(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
}

/** RSS once it stops moving (two readings 1 s apart within 1 MiB), at most 10 s. */
async function settledRss(pid: number): Promise<number> {
  let last = rssKiB(pid);
  for (let i = 0; i < 10; i++) {
    await sleep(1000);
    const now = rssKiB(pid);
    if (Math.abs(now - last) < 1024) return now;
    last = now;
  }
  return last;
}

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { token?: string };
}

async function measure(count: number) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cohort-bench-idle-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const sockets: Socket[] = [];
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (i > 1800) throw new Error('server did not become ready in 3 minutes');
      await sleep(100);
    }
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `idle-${i}-${Date.now()}@example.com`;
      await post(base, '/api/signup', { firstName: 'Idle', lastName: `${i}`, email, password: PASSWORD });
      const { token } = await post(base, '/api/login', { email, password: PASSWORD });
      if (!token) throw new Error('login returned no token');
      tokens.push(token);
    }
    // One warm-up connection so lazily created server structures are not charged to the sockets.
    const warm = io(`${base}/chat`, {
      transports: ['websocket'],
      forceNew: true,
      auth: { token: tokens[0] },
    });
    await new Promise<void>((resolve, reject) => {
      warm.once('connect', () => resolve());
      warm.once('connect_error', reject);
    });
    warm.close();
    const pid = child.pid ?? 0;
    const before = await settledRss(pid);
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < count) {
          const i = next++;
          const socket = io(`${base}/chat`, {
            transports: ['websocket'],
            forceNew: true,
            reconnection: false,
            auth: { token: tokens[i % tokens.length] },
          });
          await new Promise<void>((resolve, reject) => {
            socket.once('connect', () => resolve());
            socket.once('connect_error', reject);
          });
          sockets.push(socket);
        }
      }),
    );
    const after = await settledRss(pid);
    const connected = sockets.filter((s) => s.connected).length;
    return {
      connections: count,
      still_connected: connected,
      rss_before_MiB: Math.round(before / 102.4) / 10,
      rss_after_MiB: Math.round(after / 102.4) / 10,
      per_connection_KiB: Math.round(((after - before) / count) * 10) / 10,
    };
  } finally {
    for (const s of sockets) s.close();
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows = [];
for (const count of COUNTS) {
  console.log(`${count} idle connections…`);
  rows.push(await measure(count));
}
report('idle-memory', rows);
