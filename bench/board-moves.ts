// Card moves on a team board, live for everyone watching it (issue 20): a board of CARDS cards on
// LISTS lists in a workspace of MEMBERS members, each with a socket.io-client on /tasks that sent
// watchBoard; one member makes MOVES moves one after another (even: PUT /api/tasks/{id}/move to
// another list at a random position; odd: PUT /api/tasks/{id}/position within its list), PAUSE ms
// apart. Measured per move: the request alone, and send → the boardChanged event whose task and
// `order` reflect that move, at every other member's socket. On PGlite and on PostgreSQL in the same
// run (each its own server child process, same seeded sequence of moves); target: p99 ≤ 200 ms on
// PostgreSQL.
//
//   node --import tsx bench/board-moves.ts
//   MOVES=400 DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/board-moves.ts
//   BACKENDS=postgres node --import tsx bench/board-moves.ts           (only one of pglite, postgres)
//     (a fresh database is created on DATABASE_URL's server and dropped afterwards; PostgreSQL's
//     case is skipped when it does not answer there)
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import type { BoardChangedEvent, BoardDetail } from '@cohort/shared/boards';
import { io as connect, type Socket } from 'socket.io-client';
import {
  type BenchServer,
  call,
  cpuSeconds,
  pool,
  postgresReachable,
  report,
  signUpUsers,
  sleep,
  startServer,
  summary,
  workspaceWithMembers,
} from './lib.ts';

const MEMBERS = Number(process.env.MEMBERS ?? 20);
const LISTS = Number(process.env.LISTS ?? 5);
const CARDS = Number(process.env.CARDS ?? 500);
const MOVES = Number(process.env.MOVES ?? 200);
const PAUSE = Number(process.env.PAUSE ?? 50);
const SEED = Number(process.env.SEED ?? 20);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BACKENDS = (process.env.BACKENDS ?? 'pglite,postgres').split(',');
const TARGET_P99_MS = 200;
/** A move whose event has not reached a socket by then counts as missing there. */
const DELIVERY_TIMEOUT_MS = 5000;

/** A small seeded PRNG (mulberry32): both backends get the same sequence of moves. */
function prng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

interface Result {
  backend: string;
  deliveries: number[];
  requests: number[];
  missing: number;
  mismatched: number;
  revGaps: number;
  serverCpuMsPerMove: number;
  seedSeconds: number;
  load: string;
}

async function benchBackend(backend: string): Promise<Result> {
  const server: BenchServer = await startServer({
    databaseUrl: backend === 'postgres' ? DATABASE_URL : undefined,
    prefix: 'cohort-bench-board-',
  });
  const { url } = server;
  const sockets: Socket[] = [];
  try {
    const seedStart = performance.now();
    const run = randomUUID().slice(0, 8);
    console.log(`[${backend}] ${MEMBERS} members, a workspace, ${LISTS} lists × ${CARDS / LISTS} cards…`);
    const users = await signUpUsers(server, MEMBERS, run);
    const [mover, ...others] = users;
    if (!mover) throw new Error('no users');
    const workspaceName = `board-${run}`;
    const workspaceId = await workspaceWithMembers(url, mover, others, workspaceName, 'editor');
    // A new workspace comes with its team board.
    const boards = await call<Array<{ _id: string; workspace: { _id: string } | null }>>(
      url,
      'GET',
      '/api/boards',
      mover.token,
    );
    const boardId = boards.find((b) => b.workspace?._id === workspaceId)?._id;
    if (!boardId) throw new Error('no team board');
    const listIds = await pool(
      Array.from({ length: LISTS }, (_, i) => i),
      LISTS,
      async (i) =>
        (
          await call<{ _id: string }>(url, 'POST', '/api/tasklists', mover.token, {
            boardId,
            title: `List ${i}`,
          })
        )._id,
    );
    // Lists in parallel, each list's cards in turn (so each is appended at the end).
    await pool(listIds, LISTS, async (taskListId, l) => {
      for (let c = 0; c < CARDS / LISTS; c++) {
        await call(url, 'POST', '/api/tasks', mover.token, { taskListId, title: `Card ${l}.${c}` });
      }
    });
    const detail = await call<BoardDetail>(url, 'GET', `/api/boards/${boardId}`, mover.token);
    const order = new Map(detail.lists.map((l) => [l._id, l.tasks.map((t) => t._id)]));
    const cardCount = [...order.values()].reduce((a, ids) => a + ids.length, 0);
    if (cardCount !== CARDS) throw new Error(`board has ${cardCount} cards, not ${CARDS}`);

    // Every member's socket watches the board (the mover's too, like an open board page).
    await pool(users, 10, async (user, i) => {
      const socket = connect(`${url}/tasks`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: { token: user.token },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = await socket.timeout(10_000).emitWithAck('watchBoard', { boardId });
      if (!ack.ok) throw new Error(`watchBoard refused: ${JSON.stringify(ack)}`);
      sockets[i] = socket;
    });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.log(`[${backend}] seeded in ${seedSeconds.toFixed(0)} s; ${MOVES} moves…`);

    // The move in flight: each receiver records when its event for it arrives.
    let current: {
      taskId: string;
      expected: Map<string, string[]>;
      t0: number;
      got: Set<number>;
      done: () => void;
    } | null = null;
    const deliveries: number[] = [];
    let mismatched = 0;
    let revGaps = 0;
    sockets.forEach((socket, i) => {
      if (i === 0) return; // the mover's own tab is not one of "the others"
      let lastRev = detail.rev;
      socket.on('boardChanged', (e: BoardChangedEvent) => {
        if (e.rev !== lastRev + 1) revGaps++;
        lastRev = e.rev;
        const m = current;
        if (!m || e.taskId !== m.taskId || !e.order || m.got.has(i)) return;
        const reflects = [...m.expected].every(([listId, ids]) => {
          const sent = e.order?.find((o) => o.taskListId === listId);
          return sent !== undefined && sent.taskIds.join() === ids.join();
        });
        if (!reflects) {
          mismatched++;
          return;
        }
        deliveries.push(performance.now() - m.t0);
        m.got.add(i);
        if (m.got.size === sockets.length - 1) m.done();
      });
    });

    const pick = prng(SEED);
    const requests: number[] = [];
    let missing = 0;
    const cpu0 = cpuSeconds(server.child.pid ?? 0);
    const t0All = performance.now();
    for (let n = 0; n < MOVES; n++) {
      let path: string;
      let body: Record<string, unknown>;
      let taskId: string;
      const expected = new Map<string, string[]>();
      const nonEmpty = listIds.filter((id) => (order.get(id)?.length ?? 0) > (n % 2 === 0 ? 0 : 1));
      const fromList = nonEmpty[pick(nonEmpty.length)] as string;
      const from = [...(order.get(fromList) ?? [])];
      const index = pick(from.length);
      taskId = from[index] as string;
      from.splice(index, 1);
      if (n % 2 === 0) {
        // To another list, at a random place in it (its end included).
        const targets = listIds.filter((id) => id !== fromList);
        const toList = targets[pick(targets.length)] as string;
        const to = [...(order.get(toList) ?? [])];
        const position = pick(to.length + 1);
        to.splice(position, 0, taskId);
        expected.set(fromList, from).set(toList, to);
        path = `/api/tasks/${taskId}/move`;
        body = { newTaskListId: toList, position };
      } else {
        // Within its list, to another place.
        let position = pick(from.length);
        if (position >= index) position++;
        from.splice(position, 0, taskId);
        expected.set(fromList, from);
        path = `/api/tasks/${taskId}/position`;
        body = { position };
      }
      const got = new Set<number>();
      let done = () => {};
      const delivered = new Promise<void>((resolve) => {
        done = resolve;
      });
      const t0 = performance.now();
      current = { taskId, expected, t0, got, done };
      await call(url, 'PUT', path, mover.token, body);
      requests.push(performance.now() - t0);
      await Promise.race([delivered, sleep(DELIVERY_TIMEOUT_MS)]);
      missing += sockets.length - 1 - got.size;
      current = null;
      for (const [listId, ids] of expected) order.set(listId, ids);
      await sleep(PAUSE);
    }
    const seconds = (performance.now() - t0All) / 1000;
    const serverCpuMsPerMove = ((cpuSeconds(server.child.pid ?? 0) - cpu0) * 1000) / MOVES;
    console.log(`[${backend}] ${MOVES} moves in ${seconds.toFixed(1)} s`);
    return {
      backend,
      deliveries,
      requests,
      missing,
      mismatched,
      revGaps,
      serverCpuMsPerMove,
      seedSeconds,
      load: loadavg()
        .map((l) => l.toFixed(1))
        .join(' '),
    };
  } finally {
    for (const s of sockets) s?.close();
    await server.stop();
  }
}

console.log(
  `board-moves: ${CARDS} cards on ${LISTS} lists, ${MEMBERS} members watching, ${MOVES} moves ${PAUSE} ms apart, ` +
    `${BACKENDS.join(' and ')}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
);
const results: Result[] = [];
for (const backend of BACKENDS) {
  if (backend === 'postgres' && !(await postgresReachable(DATABASE_URL))) {
    console.log(`PostgreSQL not reachable at ${DATABASE_URL}: its case is skipped.`);
    continue;
  }
  results.push(await benchBackend(backend));
}

const rows = results.map((r) => {
  const d = summary(r.deliveries);
  const q = summary(r.requests);
  return {
    backend: r.backend,
    moves: MOVES,
    pairs: r.deliveries.length,
    missing: r.missing,
    mismatched: r.mismatched,
    rev_gaps: r.revGaps,
    ...d,
    request_p50_ms: q.p50_ms,
    request_p95_ms: q.p95_ms,
    request_p99_ms: q.p99_ms,
    request_max_ms: q.max_ms,
    server_cpu_ms_per_move: Math.round(r.serverCpuMsPerMove * 10) / 10,
    seed_s: Math.round(r.seedSeconds),
    load_avg_after: r.load,
  };
});
report('board-moves', rows);
const pglite = rows.find((r) => r.backend === 'pglite');
const postgres = rows.find((r) => r.backend === 'postgres');
if (postgres) {
  const ratio = pglite ? ` (PG/PGlite ${(postgres.p99_ms / pglite.p99_ms).toFixed(2)}×)` : '';
  console.log(
    `move → visible to the others, p99 on PostgreSQL: ${postgres.p99_ms} ms${ratio}; target ≤ ${TARGET_P99_MS} ms: ` +
      (postgres.p99_ms <= TARGET_P99_MS && postgres.missing === 0 ? 'met' : 'NOT met'),
  );
}
