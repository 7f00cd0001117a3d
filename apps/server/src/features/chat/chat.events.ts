import { channelMessageMayNotify } from '@cohort/shared/notifications';
import type { AppContext, MessageCreated } from '../../context.ts';

/**
 * Publishes `messageCreated` (notifications) for a message that has committed: the insert queued it
 * in the event outbox in its transaction, and this delivers that row on the bus now (a node dying
 * before this leaves the row to another node's drainer). Called by the chat and direct-message
 * senders after the commit and the acknowledgement, once per stored message. A failing subscriber is
 * logged by the bus: it must never turn a delivered message into an error.
 */
export async function emitMessageCreated(ctx: AppContext, event: MessageCreated): Promise<void> {
  try {
    // Channel messages that notify nobody queued no row (chat.service.ts): nothing to delete after.
    const queued = event.kind === 'direct' || channelMessageMayNotify(event.content, event.parentId);
    await ctx.outbox.deliver('messageCreated', event, queued);
  } catch (err) {
    ctx.log.error({ err, messageId: event.messageId }, 'message-created delivery failed');
  }
}

/** The event for a stored channel message. */
export function createdEvent(
  target: { workspaceId: string; channelId: string },
  message: { id: string; parentId: string | null; sender: { id: string }; content: string },
): MessageCreated {
  return {
    kind: 'channel',
    messageId: message.id,
    workspaceId: target.workspaceId,
    channelId: target.channelId,
    parentId: message.parentId,
    senderId: message.sender.id,
    content: message.content,
  };
}
