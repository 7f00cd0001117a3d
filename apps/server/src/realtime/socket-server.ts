import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { type Namespace, Server, type Socket } from 'socket.io';
import type { AppContext } from '../context.ts';
import { isAllowedOrigin } from '../http/origin.ts';
import { resolveSession, SESSION_COOKIE, type SessionUser, tokenFromHeaders } from '../http/session.ts';
import { unstorableReason } from '../http/storable-input.ts';

export interface SocketData {
  user: SessionUser;
}
export type AuthedSocket = Socket<
  Record<string, never>,
  Record<string, never>,
  Record<string, never>,
  SocketData
>;

/**
 * The largest frame a client may send: twice the largest payload any event accepts (64 KiB of call
 * signalling, which is answered "too large" by the handler). A bigger frame closes the connection
 * before it is buffered or parsed.
 */
export const SOCKET_FRAME_MAX_BYTES = 128 * 1024;

/**
 * Socket.IO on the HTTP server's port. The handshake must come from our own origin and carry a
 * valid session (cookie, or `auth: {token}` for non-browser clients); identity is never taken from
 * event payloads.
 */
export function createSocketServer(ctx: AppContext, app: FastifyInstance) {
  const io = new Server(app.server, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: SOCKET_FRAME_MAX_BYTES,
    allowRequest: (req, callback) => {
      if (closing.has(io)) return callback('shutting down', false);
      callback(null, isAllowedOrigin(req.headers.origin, req.headers.host, ctx.config.PUBLIC_URL));
    },
  });
  return io;
}

const closing = new WeakSet<Server>();

/**
 * First step of a shutdown (Fastify's preClose, before the HTTP server waits for its connections):
 * refuse new handshakes and drop this node's connections. Clients see a transport close, not a
 * server-side disconnect, so they reconnect — to another node behind the load balancer.
 */
export function dropConnections(io: Server) {
  closing.add(io);
  io.engine.close();
}

/** Namespace middleware: attaches the session user to `socket.data.user` or refuses the connection. */
export const authenticateSocket =
  (ctx: AppContext) =>
  async (socket: Socket, next: (err?: Error) => void): Promise<void> => {
    try {
      const authToken =
        typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : undefined;
      const cookieToken = fastifyCookie.parse(socket.handshake.headers.cookie ?? '')[SESSION_COOKIE];
      const token = authToken ?? tokenFromHeaders(socket.handshake.headers.authorization, cookieToken);
      const user = token ? await resolveSession(ctx, token) : null;
      if (!user) return next(new Error('unauthorized'));
      socket.data.user = user;
      next();
    } catch (err) {
      ctx.log.error({ err }, 'socket authentication failed');
      next(new Error('unauthorized'));
    }
  };

/** Sockets one user may hold open per namespace on one node (tabs × reconnects, generously). */
export const MAX_SOCKETS_PER_USER = 30;
export const TOO_MANY_CONNECTIONS = 'Too many open connections for this account: close some tabs and reload.';

/** Room names shared by every namespace (DESIGN §6). */
export const userRoom = (userId: string) => `user:${userId}`;
export const channelRoom = (channelId: string) => `channel:${channelId}`;

/**
 * A namespace that only admits sockets with a valid session; each connected socket sits in its
 * user's room, so "every tab of this user" is one room on every node.
 */
export function authenticatedNamespace(ctx: AppContext, io: Server, name: string): Namespace {
  const nsp = io.of(name);
  nsp.use(authenticateSocket(ctx));
  // One person's sockets per namespace on this node are capped: the newest beyond the cap is
  // refused with a reason the client shows, so one account cannot hold unbounded server memory.
  const perUser = new Map<string, number>();
  nsp.use((socket, next) => {
    const userId = (socket.data as Partial<SocketData>).user?.id;
    if (!userId) return next(new Error('unauthorized'));
    const open = perUser.get(userId) ?? 0;
    if (open >= MAX_SOCKETS_PER_USER) return next(new Error(TOO_MANY_CONNECTIONS));
    perUser.set(userId, open + 1);
    socket.once('disconnect', () => {
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left <= 0) perUser.delete(userId);
      else perUser.set(userId, left);
    });
    next();
  });
  nsp.on('connection', (socket) => {
    const user = (socket.data as Partial<SocketData>).user;
    if (user) socket.join(userRoom(user.id));
    // Text the database cannot store never reaches a handler: the sender's ack says which field.
    socket.use((packet, next) => {
      const reason = unstorableReason(packet.slice(1));
      if (reason === null) return next();
      const ack = packet[packet.length - 1];
      if (typeof ack === 'function') ack({ ok: false, message: reason });
    });
  });
  return nsp;
}

/**
 * With REDIS_URL, every namespace fans out through Redis streams so rooms span nodes
 * (`to(room).emit`, `socketsLeave`, `disconnectSockets` reach sockets on every node). Without it
 * the in-memory adapter serves one node. Returns what closes the Redis connection.
 */
export async function attachAdapter(ctx: AppContext, io: Server): Promise<() => Promise<void>> {
  const url = ctx.config.REDIS_URL;
  if (!url) return async () => {};
  const [{ createClient }, { createAdapter }] = await Promise.all([
    import('redis'),
    import('@socket.io/redis-streams-adapter'),
  ]);
  const client = createClient({ url });
  // Without a listener a dropped Redis connection would crash the process; the client reconnects.
  client.on('error', (err: Error) => ctx.log.error({ err }, 'redis connection error'));
  await client.connect();
  // The adapter sends its pub/sub messages (fetchSockets, serverSideEmit, acks) without awaiting
  // them: once the client is closed (a shutdown while a leave is still running) each rejects with
  // nobody to catch it, and an unhandled rejection ends the process. Log them; callers still see them.
  const publish = client.publish.bind(client);
  Object.assign(client, {
    publish: (...args: Parameters<typeof publish>) => {
      const sent = publish(...args);
      sent.catch((err: Error) => ctx.log.warn({ err }, 'redis publish failed'));
      return sent;
    },
  });
  const streams = createAdapter(client, {
    streamName: ctx.config.REDIS_STREAM,
    channelPrefix: ctx.config.REDIS_STREAM,
    onlyPlaintext: true,
  });
  // The cluster adapter awaits each XADD's reply (the stream offset, which only connection state
  // recovery uses; Cohort does not enable it) before it delivers to this node's own sockets or
  // joins/leaves their rooms: every local delivery waited for a Redis round trip and another turn
  // of a busy event loop. Answering at once keeps the order: local effects run in call order, and
  // the XADDs are still sent in call order.
  function localFirst(nsp: Namespace) {
    const adapter = streams(nsp) as unknown as { doPublish(message: unknown): Promise<string> };
    const publish = adapter.doPublish.bind(adapter);
    adapter.doPublish = (message) => {
      publish(message).catch((err: Error) => ctx.log.warn({ err }, 'redis adapter publish failed'));
      return Promise.resolve('');
    };
    return adapter;
  }
  // Socket.IO calls the adapter with `new`: a function returning an object gives that object.
  io.adapter(localFirst as unknown as typeof streams);
  return async () => {
    try {
      await client.quit();
    } catch {
      client.destroy();
    }
  };
}
