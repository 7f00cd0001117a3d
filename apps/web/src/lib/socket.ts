import { useCallback, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';

/**
 * `connecting`: the first handshake is under way. `connected`: events flow. `reconnecting`: the
 * connection dropped (or never came up) and Socket.IO keeps retrying. `refused`: the server turned the
 * handshake down or closed the socket itself (no session, session revoked); retrying cannot help.
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'refused';

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

/** The state a socket is in right now, read from its public flags. */
export function connectionStateOf(socket: Socket): ConnectionState {
  if (socket.connected) return 'connected';
  if (!socket.active) return 'refused';
  return everConnected.has(socket) ? 'reconnecting' : 'connecting';
}

// Sockets that connected at least once: after that, "not connected" means "reconnecting".
const everConnected = new WeakSet<Socket>();

/**
 * Follows a socket's connection state as React state. `null` (no socket yet) reads as `connecting`.
 * A failed handshake (server down, network gone) counts as reconnecting because Socket.IO retries it;
 * a handshake the server refuses (middleware error) leaves the socket inactive, which reads as refused.
 */
export function useConnectionState(socket: Socket | null): ConnectionState {
  const subscribe = useCallback(
    (notify: () => void) => {
      if (!socket) return () => {};
      const onConnect = () => {
        everConnected.add(socket);
        notify();
      };
      const onConnectError = () => {
        // Not "connecting" any more: the first attempt is over, further ones are reconnections.
        everConnected.add(socket);
        notify();
      };
      socket.on('connect', onConnect);
      socket.on('disconnect', notify);
      socket.on('connect_error', onConnectError);
      return () => {
        socket.off('connect', onConnect);
        socket.off('disconnect', notify);
        socket.off('connect_error', onConnectError);
      };
    },
    [socket],
  );
  return useSyncExternalStore(subscribe, () => (socket ? connectionStateOf(socket) : 'connecting'));
}

/** What the connection-status line says, or nothing while all is well (or still starting). */
export function connectionMessage(state: ConnectionState): string | null {
  if (state === 'reconnecting') return 'Reconnecting…';
  if (state === 'refused') return 'Disconnected. Reload the page to reconnect.';
  return null;
}
