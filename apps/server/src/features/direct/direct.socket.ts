import { CHAT_MESSAGES, DM_EVENTS, DM_NAMESPACE, sendDirectMessagePayload } from '@cohort/shared/chat';
import type { Namespace, Server, Socket } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { ackOf, failureReason, reasonOf } from '../../realtime/acks.ts';
import { messageSendLimiter, type RealtimeOptions } from '../../realtime/options.ts';
import { SocketMemory } from '../../realtime/socket-memory.ts';
import { authenticatedNamespace, type SocketData, userRoom } from '../../realtime/socket-server.ts';
import type { Party } from '../workspaces/peers.access.ts';
import { type DirectPublisher, sendDirectMessage } from './direct.actions.ts';

/**
 * `/dm`: every socket sits in its user's room (the spec's `register` is implied by the session and
 * accepted as a no-op). A message is committed, acknowledged, then delivered to both users' rooms:
 * every tab of the sender and of the receiver, on every node.
 */
export interface DirectRealtime extends DirectPublisher {
  nsp: Namespace;
}

export function registerDirectNamespace(
  ctx: AppContext,
  io: Server,
  options: RealtimeOptions,
): DirectRealtime {
  const nsp = authenticatedNamespace(ctx, io, DM_NAMESPACE);
  const sendLimiter = messageSendLimiter(ctx, options);
  const realtime: DirectRealtime = {
    nsp,
    announceCreated: (message, [a, b]) => {
      nsp.to([userRoom(a), userRoom(b)]).emit(DM_EVENTS.newMessage, message);
      ctx.metrics.messageDelivered('direct', message._id);
    },
    /** After a commit: a message's new state to every socket of both users. */
    announceUpdate: (message, [a, b]) =>
      nsp.to([userRoom(a), userRoom(b)]).emit(DM_EVENTS.messageUpdated, message),
  };

  nsp.on('connection', (socket: Socket) => {
    const user = (socket.data as SocketData).user;
    const recipients = new SocketMemory<Party>();

    socket.on(DM_EVENTS.register, (_payload: unknown, ack: unknown) => ackOf(ack)({ ok: true }));

    socket.on(DM_EVENTS.sendMessage, async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      if (!sendLimiter.take(user.id)) return reply({ ok: false, message: CHAT_MESSAGES.slowDown });
      const parsed = sendDirectMessagePayload.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, message: reasonOf(parsed.error) });
      try {
        await sendDirectMessage(ctx, realtime, user, parsed.data, {
          recipients,
          acknowledge: (presented) => reply({ ok: true, message: presented }),
        });
      } catch (err) {
        reply({ ok: false, message: failureReason(ctx, err, CHAT_MESSAGES.recipientNotFound) });
      }
    });
  });

  return realtime;
}
