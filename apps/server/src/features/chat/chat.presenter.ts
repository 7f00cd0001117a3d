import type { ChannelMessage } from '@cohort/shared/chat';
import { displayName } from '@cohort/shared/names';
import type { ChannelPin } from '@cohort/shared/pins';
import { presentReactions } from '../messaging/messaging.presenter.ts';
import type { StoredChannelMessage } from './chat.service.ts';

/** The only shape a channel message leaves the server in, over HTTP and sockets alike. */
export function presentChannelMessage(m: StoredChannelMessage): ChannelMessage {
  const deleted = m.deletedAt !== null;
  return {
    _id: m.id,
    seq: m.seq,
    channel: m.channelId,
    // A deleted message keeps its place, never its words.
    content: deleted ? '' : m.content,
    timestamp: m.createdAt.toISOString(),
    clientId: m.clientId,
    sender: {
      _id: m.sender.id,
      email: m.sender.email,
      name: displayName(m.sender),
    },
    rev: m.rev,
    editedAt: m.editedAt?.toISOString() ?? null,
    deleted,
    parentId: m.parentId,
    replyCount: m.replyCount,
    lastReplyAt: m.lastReplyAt?.toISOString() ?? null,
    reactions: deleted ? [] : presentReactions(m.reactions),
    attachments: deleted ? [] : m.attachments,
    kind: m.kind,
    // A deleted message keeps no pin.
    pinned:
      m.pin && !deleted
        ? { by: { _id: m.pin.by.id, name: displayName(m.pin.by) }, at: m.pin.at.toISOString() }
        : null,
  };
}

/** A row of a channel's Pins panel: the message, who pinned it and when. */
export function presentChannelPin(m: StoredChannelMessage): ChannelPin {
  const message = presentChannelMessage(m);
  return {
    message,
    pinnedAt: message.pinned?.at ?? message.timestamp,
    pinnedBy: message.pinned?.by ?? { _id: '', name: '' },
  };
}
