import {
  activityPayload,
  PRESENCE_EVENTS,
  PRESENCE_MESSAGES,
  PRESENCE_NAMESPACE,
  type PresenceChangedEvent,
  type PresenceStatus,
} from '@cohort/shared/presence';
import type { Server, Socket } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { ackOf, reasonOf } from '../../realtime/acks.ts';
import { type RealtimeOptions, SendLimiter } from '../../realtime/options.ts';
import { authenticatedNamespace, type SocketData, userRoom } from '../../realtime/socket-server.ts';
import { coMemberIds } from '../workspaces/workspaces.access.ts';
import { PresenceTracker } from './presence.service.ts';
import { createPresenceStore, type PresenceStore } from './presence.store.ts';

export interface PresenceRealtime {
  /** Statuses of these users, as every node sees them. */
  statuses(userIds: string[]): Promise<Map<string, PresenceStatus>>;
  close(): Promise<void>;
}

/**
 * `/presence`: every signed-in page keeps one socket here; it counts as an active tab from the
 * handshake on and reports `activity {state: 'active'|'idle'}` when that changes. Status changes go
 * to every tab of the people who share a workspace with the user (looked up when the change happens,
 * so a removed member stops hearing at once), on every node — never to anyone else.
 */
export async function registerPresenceNamespace(
  ctx: AppContext,
  io: Server,
  options: RealtimeOptions,
): Promise<PresenceRealtime> {
  const nsp = authenticatedNamespace(ctx, io, PRESENCE_NAMESPACE);
  const store: PresenceStore = await createPresenceStore(ctx, () => options.presenceNodeTimeoutMs);

  const announce = async (changes: [string, PresenceStatus][]) => {
    for (const [userId, status] of changes) {
      const audience = await coMemberIds(ctx, userId);
      const event: PresenceChangedEvent = { userId, status };
      nsp.to(audience.map(userRoom)).emit(PRESENCE_EVENTS.changed, event);
    }
  };
  const tracker = new PresenceTracker(ctx, store, options, announce);
  await tracker.start();

  nsp.on('connection', (socket: Socket) => {
    const user = (socket.data as SocketData).user;
    const limiter = new SendLimiter({
      ...options,
      sendRateLimit: options.activityRateLimit,
      sendRateWindowMs: options.activityRateWindowMs,
    });
    tracker.connected(user.id, socket.id);

    socket.on(PRESENCE_EVENTS.activity, (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      if (!limiter.take()) return reply({ ok: false, reason: PRESENCE_MESSAGES.slowDown });
      const parsed = activityPayload.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, reason: reasonOf(parsed.error) });
      tracker.reported(user.id, socket.id, parsed.data.state);
      reply({ ok: true });
    });
    socket.on('disconnect', () => tracker.disconnected(user.id, socket.id));
  });

  return {
    statuses: (userIds) => store.read(userIds),
    close: () => tracker.close(),
  };
}
