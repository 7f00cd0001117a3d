import { type ChannelUnread, type DirectUnread, READ_EVENTS } from '@cohort/shared/reads';
import type { Namespace } from 'socket.io';
import { userRoom } from '../../realtime/socket-server.ts';

/**
 * Read state is pushed, never asked for over a socket: after a mark moves or a mute changes, every
 * socket of that user (all tabs and devices, on every node through the adapter) gets
 * `readMarkChanged` — on `/chat` for a channel, on `/dm` for a direct conversation, the namespaces
 * the web client already holds open for those views.
 */
export interface ReadsRealtime {
  channelChanged(userId: string, state: ChannelUnread): void;
  directChanged(userId: string, state: DirectUnread): void;
}

export function readsRealtime(chat: Namespace, dm: Namespace): ReadsRealtime {
  return {
    channelChanged: (userId, state) => chat.to(userRoom(userId)).emit(READ_EVENTS.readMarkChanged, state),
    directChanged: (userId, state) => dm.to(userRoom(userId)).emit(READ_EVENTS.readMarkChanged, state),
  };
}
