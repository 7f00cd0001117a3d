import { io, type Socket } from 'socket.io-client';

/**
 * A fresh connection to one namespace on this origin (SPEC §7: "fresh connection each time"). The
 * session cookie travels with the websocket handshake, so no token is ever put in `auth`. `forceNew`
 * keeps two views of the same namespace (a channel pane and the sidebar's unread counter) from sharing
 * one Manager, so closing one never closes the other.
 */
export function connectNamespace(namespace: string): Socket {
  const socket = io(namespace, { transports: ['websocket'], forceNew: true, withCredentials: true });
  dropWhenOffline(socket);
  return socket;
}

/**
 * The browser knows first when the network is gone, while an open websocket may only notice at the
 * next missed ping (up to 45 s). Dropping the transport then makes the page say "Reconnecting…" and
 * hold what is written at once; Socket.IO's own retries bring it back when the network returns.
 */
function dropWhenOffline(socket: Socket) {
  if (typeof window === 'undefined') return;
  const onOffline = () => {
    if (!socket.active) return window.removeEventListener('offline', onOffline);
    socket.io.engine?.close();
  };
  window.addEventListener('offline', onOffline);
  socket.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') window.removeEventListener('offline', onOffline);
  });
}
