import type { DirectMessage } from '@cohort/shared/chat';
import type { AppContext } from '../../context.ts';
import type { SessionUser } from '../../http/session.ts';
import type { SocketMemory } from '../../realtime/socket-memory.ts';
import { emitMessageCreated } from '../chat/chat.events.ts';
import { deleteMessage, editMessage, setReaction } from '../messaging/messaging.access.ts';
import { loadRecipientForUser, type Party, recipientNotFound } from '../workspaces/peers.access.ts';
import { presentDirectMessage } from './direct.presenter.ts';
import { directMessageHandle, type StoredDirectMessage, storeDirectMessage } from './direct.service.ts';

/**
 * One function per use case on direct messages: check who may write or change, write, present,
 * publish. HTTP routes and socket handlers call these and do nothing else.
 */

/** Where results go after a commit (the `/dm` namespace): every socket of both users. */
export interface DirectPublisher {
  announceCreated(message: DirectMessage, userIds: [string, string]): void;
  announceUpdate(message: DirectMessage, userIds: [string, string]): void;
}

/** The people a socket has sent to, by the (normalized) address it wrote to: see SocketMemory. */
export type RememberedRecipients = SocketMemory<Party>;

/**
 * Sends a message to someone the sender shares a workspace with: stored (a resend of a clientId
 * answers the original, `created: false`), acknowledged, then delivered and handed to the
 * message-created hooks. A socket passes the recipients it looked up before (`recipients`): the
 * insert re-checks the address and the shared workspace itself, so a remembered one goes straight
 * to it, and a refusal forgets it.
 */
export async function sendDirectMessage(
  ctx: AppContext,
  publisher: DirectPublisher,
  user: SessionUser,
  input: {
    receiverEmail: string;
    clientId: string;
    content: string;
    attachments?: readonly string[] | undefined;
  },
  options: { recipients?: RememberedRecipients; acknowledge?: (message: DirectMessage) => void } = {},
): Promise<{ message: DirectMessage; created: boolean }> {
  const { recipients, acknowledge } = options;
  let receiver = recipients?.get(input.receiverEmail);
  if (!receiver) {
    receiver = await loadRecipientForUser(ctx, user, input.receiverEmail);
    recipients?.remember(input.receiverEmail, receiver);
  }
  const stored = await storeDirectMessage(ctx, user, receiver, input);
  // No longer shared, or the address now names someone else: the same answer as a stranger.
  if (!stored) {
    recipients?.forget(input.receiverEmail);
    throw recipientNotFound();
  }
  const presented = presentDirectMessage(stored.message);
  acknowledge?.(presented);
  if (stored.created) {
    publisher.announceCreated(presented, [user.id, receiver.id]);
    await emitMessageCreated(ctx, {
      kind: 'direct',
      messageId: stored.message.id,
      senderId: user.id,
      receiverId: receiver.id,
      content: stored.message.content,
    });
  }
  return { message: presented, created: stored.created };
}

const announced = (publisher: DirectPublisher, stored: StoredDirectMessage) => {
  const presented = presentDirectMessage(stored);
  publisher.announceUpdate(presented, [stored.sender.id, stored.receiver.id]);
  return presented;
};

/** Edit: the sender only; the other party gets 403, anyone else 404. */
export async function editDirectMessage(
  ctx: AppContext,
  publisher: DirectPublisher,
  user: SessionUser,
  messageId: string,
  content: string,
): Promise<DirectMessage> {
  return announced(
    publisher,
    await editMessage(ctx, directMessageHandle(ctx, user, messageId), user.id, content),
  );
}

/** Delete: the sender only (there is no moderator of a conversation). */
export async function deleteDirectMessage(
  ctx: AppContext,
  publisher: DirectPublisher,
  user: SessionUser,
  messageId: string,
): Promise<DirectMessage> {
  return announced(
    publisher,
    await deleteMessage(ctx, directMessageHandle(ctx, user, messageId), user.id, false),
  );
}

/** Adds (`on`) or removes the caller's reaction; only a real change is announced. */
export async function reactToDirectMessage(
  ctx: AppContext,
  publisher: DirectPublisher,
  user: SessionUser,
  messageId: string,
  emoji: string,
  on: boolean,
): Promise<DirectMessage> {
  const result = await setReaction(ctx, directMessageHandle(ctx, user, messageId), user.id, emoji, on);
  return result.changed ? announced(publisher, result.message) : presentDirectMessage(result.message);
}
