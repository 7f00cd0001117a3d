import type { AppContext } from '../../context.ts';
import type { AppEvents } from '../../events/event-bus.ts';

/**
 * Membership changes, published on the app's bus by the workspaces services after their transaction
 * commits, so that the real-time layer can act on open connections at once (leave rooms, refuse
 * further events). The bus is in-process: a change made on one node reaches the sockets of the
 * others through their periodic checks (or the Socket.IO adapter).
 */
export type MembershipEventMap = {
  [K in 'memberAdded' | 'roleChanged' | 'memberRemoved' | 'workspaceDeleted' | 'channelDeleted']: [
    AppEvents[K],
  ];
};

/** A failing subscriber is logged by the bus: it must not turn a committed change into an error response. */
export function emitMembershipEvent<K extends keyof MembershipEventMap>(
  ctx: AppContext,
  name: K,
  ...payload: MembershipEventMap[K]
) {
  void ctx.bus.emit(name, payload[0]);
}
