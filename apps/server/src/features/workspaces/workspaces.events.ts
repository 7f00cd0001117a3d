import { EventEmitter } from 'node:events';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import type { AppContext } from '../../context.ts';

/**
 * Membership changes, emitted by the workspaces services after their transaction commits, so that
 * the real-time layer can act on open connections at once (leave rooms, refuse further events).
 * This emitter is in-process: with several app nodes the subscriber must fan the events out through
 * Redis (the Socket.IO adapter), since a change made on one node concerns sockets on all of them.
 */
export interface MembershipEventMap {
  memberAdded: [{ workspaceId: string; userId: string; role: WorkspaceRole }];
  roleChanged: [{ workspaceId: string; userId: string; role: WorkspaceRole; previousRole: WorkspaceRole }];
  memberRemoved: [{ workspaceId: string; userId: string }];
  workspaceDeleted: [{ workspaceId: string; userIds: string[]; channelIds: string[] }];
  channelDeleted: [{ workspaceId: string; channelId: string }];
}

export const membershipEvents = new EventEmitter<MembershipEventMap>();

/** A failing subscriber must not turn a committed change into an error response. */
export function emitMembershipEvent<K extends keyof MembershipEventMap>(
  ctx: AppContext,
  name: K,
  ...payload: MembershipEventMap[K]
) {
  try {
    (membershipEvents.emit as (event: K, ...args: MembershipEventMap[K]) => boolean)(name, ...payload);
  } catch (err) {
    ctx.log.error({ err, event: name }, 'membership event subscriber failed');
  }
}
