import type { Socket } from 'socket.io-client';
import type * as LiveClientModule from './live-client.ts';

export type LiveClient = typeof LiveClientModule;

let loading: Promise<LiveClient> | null = null;

/**
 * The Socket.IO client and the shared schemas (lib/live-client.ts), fetched once. A failed fetch
 * (offline) is forgotten, so the next caller tries again.
 */
export function loadLive(): Promise<LiveClient> {
  // In two steps, each evaluated in a task of its own: zod and the chat schemas (a conversation's first
  // page waits for them), then the rest. In one piece the evaluation held a phone's main thread for
  // 40+ ms (issue 19). Both steps' chunks are preloaded with the page (web-shell), so the step costs a
  // task, not a round trip.
  loading ??= import('@cohort/shared/chat')
    .then(() => import('./live-client.ts'))
    .catch((err: unknown) => {
      loading = null;
      throw err;
    });
  return loading;
}

/**
 * Opens a connection to `namespace` as soon as the live client is loaded (at once when it already
 * is) and hands it to `wire`, which attaches its handlers and may return what to undo before the
 * socket disconnects. Returns the cleanup for a React effect: it also cancels a connection that has
 * not been opened yet.
 */
export function openLive(
  namespace: string,
  wire: (socket: Socket, live: LiveClient) => (() => void) | undefined,
): () => void {
  let closed = false;
  let close: (() => void) | undefined;
  let socket: Socket | undefined;
  const open = () => {
    loadLive().then(
      (live) => {
        if (closed) return;
        socket = live.connectNamespace(namespace);
        close = wire(socket, live);
      },
      () => {
        // The chunk could not be fetched (offline): the view says "connecting" and tries again when
        // the network is back, as Socket.IO itself would.
        if (!closed) window.addEventListener('online', open, { once: true });
      },
    );
  };
  open();
  return () => {
    closed = true;
    window.removeEventListener('online', open);
    close?.();
    socket?.disconnect();
  };
}

/** `answer` checked with one of the live client's schemas; the two are awaited together, not in turn. */
export async function parsedWith<T>(
  schema: (live: LiveClient) => { parse: (raw: unknown) => T },
  answer: Promise<unknown>,
): Promise<T> {
  const [live, raw] = await Promise.all([loadLive(), answer]);
  return schema(live).parse(raw);
}
