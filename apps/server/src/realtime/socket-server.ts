import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { AppContext } from '../context.ts';
import { isAllowedOrigin } from '../http/origin.ts';
import { resolveSession, SESSION_COOKIE, type SessionUser, tokenFromHeaders } from '../http/session.ts';

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
 * Socket.IO on the HTTP server's port. The handshake must come from our own origin and carry a
 * valid session (cookie, or `auth: {token}` for non-browser clients); identity is never taken from
 * event payloads.
 */
export function createSocketServer(ctx: AppContext, app: FastifyInstance) {
  const io = new Server(app.server, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 1e6,
    allowRequest: (req, callback) => {
      callback(null, isAllowedOrigin(req.headers.origin, req.headers.host, ctx.config.PUBLIC_URL));
    },
  });
  return io;
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
