import type { AppContext, MessageCreated } from '../../context.ts';

/**
 * Runs the `ctx.onMessageCreated` hooks (notifications) for a message that has committed. Called by
 * the chat and direct-message senders after the commit and the acknowledgement, once per stored
 * message. A failing hook is logged: it must never turn a delivered message into an error.
 */
export async function emitMessageCreated(ctx: AppContext, event: MessageCreated): Promise<void> {
  for (const hook of ctx.onMessageCreated) {
    try {
      await hook(event);
    } catch (err) {
      ctx.log.error({ err, messageId: event.messageId }, 'message-created hook failed');
    }
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
