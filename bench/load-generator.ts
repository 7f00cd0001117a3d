// One load-generator process of bench/load.ts (forked by it; talks over IPC). It plays its share
// of the simulated users — real socket.io-client connections (websocket transport) to /chat and
// real HTTP requests — and reports raw latencies for each measurement window.
//
// Each user, once a minute from a random phase: types (two `typing` events 1.5 s apart), sends a
// message (ack timed), reads a channel's history twice (GET …/messages?limit=50) and opens the task
// board (GET /api/tasklists, then GET /api/tasks?taskListId=). It is joined to 5 channels and
// receives what the ~25 members of each post and type there.
import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';

export interface LoadUser {
  index: number;
  token: string;
  workspaceName: string;
  channelIds: string[];
  taskListId: string;
  /** Index of the node this user talks to (HTTP and socket). */
  node: number;
}

export type ParentMessage =
  | { type: 'init'; nodes: string[]; users: LoadUser[]; generator: number; generators: number }
  | { type: 'grow'; upto: number }
  | { type: 'reset' }
  | { type: 'collect' }
  | { type: 'histories' }
  | { type: 'stop' };

export interface WindowStats {
  type: 'stats';
  /** Request latencies (ms) by kind: socket acks and HTTP responses. */
  requests: Record<string, number[]>;
  /** Sender's send time → another member's receipt (ms). */
  deliveries: number[];
  /** `deliveries` split by whether sender and receiver are on different nodes (through Redis). */
  crossNode: number[];
  sameNode: number[];
  errors: Record<string, number>;
  typingReceived: number;
  connected: number;
  seconds: number;
  cpuSeconds: number;
}

const PERIOD_MS = 60_000;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let nodes: string[] = [];
let users: LoadUser[] = [];
let running = true;

interface Window {
  requests: Record<string, number[]>;
  deliveries: number[];
  crossNode: number[];
  sameNode: number[];
  errors: Record<string, number>;
  typingReceived: number;
  startedAt: number;
  cpu: NodeJS.CpuUsage;
}
const newWindow = (): Window => ({
  requests: {},
  deliveries: [],
  crossNode: [],
  sameNode: [],
  errors: {},
  typingReceived: 0,
  startedAt: now(),
  cpu: process.cpuUsage(),
});
let win = newWindow();

const record = (kind: string, ms: number) => {
  const list = win.requests[kind];
  if (list) list.push(ms);
  else win.requests[kind] = [ms];
};
const fail = (kind: string, detail?: unknown) => {
  win.errors[kind] = (win.errors[kind] ?? 0) + 1;
  if (detail === undefined || (win.errors[kind] ?? 0) > 3) return;
  const text =
    detail instanceof Error
      ? `${detail.message}${detail.cause ? ` (${String(detail.cause)})` : ''}`
      : JSON.stringify(detail);
  console.error(`[generator] ${kind}: ${text}`);
};

/** What this process saw delivered per channel (seq → id), and the ids its sends got acknowledged. */
const seen = new Map<string, Map<number, string>>();
const acked: string[] = [];

const sockets: Socket[] = [];
let connected = 0;

async function http(kind: string, user: LoadUser, path: string) {
  const url = `${nodes[user.node]}${path}`;
  const t0 = now();
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${user.token}` } });
    await res.arrayBuffer();
    if (res.ok) record(kind, now() - t0);
    else fail(kind, `${res.status} ${path}`);
  } catch (err) {
    fail(kind, err);
  }
}

const historyPath = (user: LoadUser, channelId: string) =>
  `/api/workspaces/${encodeURIComponent(user.workspaceName)}/channels/${channelId}/messages?limit=50`;

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

async function startUser(user: LoadUser) {
  const socket = connect(`${nodes[user.node]}/chat`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { token: user.token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.on('newMessage', (m: { _id: string; seq: number; channel: string; content: string }) => {
    const bySeq = seen.get(m.channel) ?? new Map<number, string>();
    seen.set(m.channel, bySeq);
    const prior = bySeq.get(m.seq);
    if (prior === undefined) bySeq.set(m.seq, m._id);
    else if (prior !== m._id) fail('conflicting seq', `${m.channel} #${m.seq}: ${prior} vs ${m._id}`);
    // Content is `L|<sender index>|<send time>|<sender's node>|…`; only other members' receipts count.
    const [tag, sender, sentAt, senderNode] = m.content.split('|');
    if (tag !== 'L' || Number(sender) === user.index) return;
    const ms = now() - Number(sentAt);
    win.deliveries.push(ms);
    if (Number(senderNode) !== user.node) win.crossNode.push(ms);
    else win.sameNode.push(ms);
  });
  socket.on('userTyping', () => {
    win.typingReceived++;
  });
  socket.on('disconnect', (reason) => {
    if (running) fail('disconnect', reason);
  });
  for (const channelId of user.channelIds) {
    const t0 = now();
    const ack = await socket
      .timeout(10_000)
      .emitWithAck('joinChannel', { channelId, workspaceName: user.workspaceName });
    if (!ack.ok) throw new Error(`join refused: ${JSON.stringify(ack)}`);
    record('socket joinChannel', now() - t0);
  }
  // Opening the app: the first channel's history.
  await http('GET messages (history)', user, historyPath(user, user.channelIds[0] ?? ''));
  sockets.push(socket);
  connected++;
  schedule(user, socket);
}

async function send(user: LoadUser, socket: Socket, channelId: string) {
  const t0 = now();
  try {
    const ack = await socket.timeout(10_000).emitWithAck('sendMessage', {
      channelId,
      workspaceName: user.workspaceName,
      clientId: randomUUID(),
      message: { content: `L|${user.index}|${t0}|${user.node}|hello from a simulated user` },
    });
    if (ack.ok) {
      record('socket sendMessage', now() - t0);
      acked.push(ack.message._id);
    } else fail('socket sendMessage', ack);
  } catch (err) {
    fail('socket sendMessage', err);
  }
}

/** A user's minute, repeated from a random phase: type, send, read history twice, open the board. */
function schedule(user: LoadUser, socket: Socket) {
  // First at `offset` (mod the period, so a new user is at its steady rate at once), then every
  // PERIOD_MS while the socket is up.
  const at = (offset: number, fn: () => void) => {
    setTimeout(() => {
      if (!running || socket.disconnected) return;
      fn();
      const every = setInterval(() => {
        if (!running || socket.disconnected) return clearInterval(every);
        fn();
      }, PERIOD_MS);
    }, offset % PERIOD_MS);
  };
  const phase = Math.random() * PERIOD_MS;
  let channelId = pick(user.channelIds);
  at(phase, () => {
    channelId = pick(user.channelIds);
    socket.emit('typing', { channelId, workspaceName: user.workspaceName, isTyping: true });
  });
  at(phase + 1500, () =>
    socket.emit('typing', { channelId, workspaceName: user.workspaceName, isTyping: true }),
  );
  at(phase + 3000, () => void send(user, socket, channelId));
  at(
    phase + 20_000,
    () => void http('GET messages (history)', user, historyPath(user, pick(user.channelIds))),
  );
  at(phase + 40_000, () => {
    void (async () => {
      await http('GET tasklists (board)', user, '/api/tasklists');
      await http('GET tasks (board)', user, `/api/tasks?taskListId=${user.taskListId}`);
    })();
  });
  at(
    phase + 50_000,
    () => void http('GET messages (history)', user, historyPath(user, pick(user.channelIds))),
  );
}

async function grow(upto: number) {
  const mine = users.filter((u) => u.index < upto && u.index >= started);
  started = upto;
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: 40 }, async () => {
      while (next < mine.length) {
        const user = mine[next++] as LoadUser;
        try {
          await startUser(user);
        } catch (err) {
          failed++;
          fail('connect', err);
        }
      }
    }),
  );
  return failed;
}
let started = 0;

process.on('message', async (msg: ParentMessage) => {
  const reply = (m: unknown) => process.send?.(m);
  switch (msg.type) {
    case 'init':
      nodes = msg.nodes;
      users = msg.users.filter((u) => u.index % msg.generators === msg.generator);
      reply({ type: 'ready' });
      break;
    case 'grow': {
      const failed = await grow(msg.upto);
      reply({ type: 'grown', connected, failed });
      break;
    }
    case 'reset':
      win = newWindow();
      reply({ type: 'reset' });
      break;
    case 'collect': {
      const cpu = process.cpuUsage(win.cpu);
      const stats: WindowStats = {
        type: 'stats',
        requests: win.requests,
        deliveries: win.deliveries,
        crossNode: win.crossNode,
        sameNode: win.sameNode,
        errors: win.errors,
        typingReceived: win.typingReceived,
        connected,
        seconds: (now() - win.startedAt) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
      };
      reply(stats);
      break;
    }
    case 'histories':
      // End the load first: nothing is sent while the parent reads the stored histories.
      running = false;
      for (const s of sockets) s.close();
      await sleep(1000);
      reply({
        type: 'histories',
        seen: [...seen].map(([channelId, bySeq]) => [channelId, [...bySeq]]),
        acked,
      });
      break;
    case 'stop':
      running = false;
      for (const s of sockets) s.close();
      await sleep(200);
      process.exit(0);
  }
});
