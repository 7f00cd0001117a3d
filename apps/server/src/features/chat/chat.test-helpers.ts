import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';

/** Socket helpers shared by the chat and direct-message test files (not a test file itself). */

export const baseUrl = (server: { address(): AddressInfo | string | null }) =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connected socket on `namespace`; rejects with the handshake error. */
export function openSocket(
  url: string,
  namespace: string,
  token: string,
  opts: { reconnection?: boolean } = {},
): Promise<Socket> {
  const socket = connect(`${url}${namespace}`, {
    transports: ['websocket'],
    reconnection: opts.reconnection ?? false,
    forceNew: true,
    auth: { token },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Emits with an acknowledgement; rejects after `timeoutMs` without one. */
export function request<T = { ok: boolean; message?: unknown }>(
  socket: Socket,
  event: string,
  payload: unknown,
  timeoutMs = 5000,
): Promise<T> {
  return socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<T>;
}

/** Everything `event` delivers to this socket from now on. */
export function collect<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

/** The first `event` matching `test`, or a rejection after `timeoutMs`. */
export function next<T = unknown>(
  socket: Socket,
  event: string,
  test: (payload: T) => boolean = () => true,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!test(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Resolves once `check` holds, polling; rejects after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 5000, stepMs = 20) {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(stepMs);
  }
}

export const newClientId = () => randomUUID();
