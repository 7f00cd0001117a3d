import { useCallback, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';

// Apart from lib/socket.ts, which imports the Socket.IO client: a view shows its connection state
// without carrying the client in its first download (lib/live.ts loads it after the first render).

/**
 * `connecting`: the first handshake is under way. `connected`: events flow. `reconnecting`: the
 * connection dropped (or never came up) and Socket.IO keeps retrying. `refused`: the server turned the
 * handshake down or closed the socket itself (no session, session revoked); retrying cannot help.
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'refused';

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
