import type { DirectMessage } from '@cohort/shared/chat';
import { presentReactions } from '../messaging/messaging.presenter.ts';
import type { StoredDirectMessage } from './direct.service.ts';

/** The only shape a direct message leaves the server in (the spec's: sender and receiver e-mails). */
export function presentDirectMessage(m: StoredDirectMessage): DirectMessage {
  return {
    _id: m.id,
    seq: m.seq,
    sender: m.sender.email,
    receiver: m.receiver.email,
    content: m.deletedAt ? '' : m.content,
    createdAt: m.createdAt.toISOString(),
    messageType: m.messageType,
    clientId: m.clientId,
    rev: m.rev,
    editedAt: m.editedAt?.toISOString() ?? null,
    deleted: m.deletedAt !== null,
    reactions: m.deletedAt ? [] : presentReactions(m.reactions),
    attachments: m.deletedAt ? [] : m.attachments,
  };
}
