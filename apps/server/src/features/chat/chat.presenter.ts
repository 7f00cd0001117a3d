import type { ChannelMessage } from '@cohort/shared/chat';
import type { StoredChannelMessage } from './chat.service.ts';

/** The only shape a channel message leaves the server in, over HTTP and sockets alike. */
export function presentChannelMessage(m: StoredChannelMessage): ChannelMessage {
  return {
    _id: m.id,
    seq: m.seq,
    channel: m.channelId,
    content: m.content,
    timestamp: m.createdAt.toISOString(),
    clientId: m.clientId,
    sender: {
      _id: m.sender.id,
      email: m.sender.email,
      name: `${m.sender.firstName} ${m.sender.lastName}`.trim(),
    },
  };
}
