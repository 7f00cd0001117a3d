import { CHAT_MESSAGES, type ChannelMessage } from '@cohort/shared/chat';
import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { deleteMessage, editMessage, setReaction } from '../messaging/messaging.access.ts';
import { createdEvent, emitMessageCreated } from './chat.events.ts';
import {
  authorizePost,
  CHAT_ROLES,
  loadChannelForChat,
  mayModerate,
  type ResolvedChannels,
  refuseIfArchived,
} from './chat.policy.ts';
import { presentChannelMessage } from './chat.presenter.ts';
import { type ChannelTarget, channelMessageHandle, postChannelMessage } from './chat.service.ts';

/**
 * One function per use case on a channel's messages: check access through the policy, write,
 * present, publish. HTTP routes and socket handlers call these and do nothing else.
 */

/** Where results go after a commit (the `/chat` namespace). */
export interface ChannelPublisher {
  /** A new message, and for a thread reply its parent's new state; ends the sender's typing. */
  announceCreated(senderId: string, message: ChannelMessage): Promise<void>;
  /** A message's new state (edit, delete, reaction) to its channel's room. */
  announceUpdate(message: ChannelMessage): void;
}

interface ChannelRef {
  workspaceName: string;
  channelId: string;
}

/**
 * Sends a message: stored with its seq and attachments (a resend of a clientId answers the original,
 * `created: false`), acknowledged, then announced and handed to the message-created hooks. A socket
 * passes the channels it resolved before (`resolved`): when the insert's own access check refuses,
 * that memory may be why, so the refusal is explained by a fresh lookup.
 */
export async function sendChannelMessage(
  ctx: AppContext,
  publisher: ChannelPublisher,
  user: SessionUser,
  ref: ChannelRef,
  input: {
    clientId: string;
    content: string;
    parentId?: string | undefined;
    attachments?: readonly string[] | undefined;
  },
  options: { resolved?: ResolvedChannels; acknowledge?: (message: ChannelMessage) => void } = {},
): Promise<{ message: ChannelMessage; created: boolean }> {
  const { workspaceName, channelId } = ref;
  const { resolved } = options;
  let target: ChannelTarget | undefined = resolved?.get(workspaceName, channelId);
  if (!target) {
    const access = await loadChannelForChat(ctx, user, workspaceName, channelId);
    authorizePost(access);
    resolved?.remember(workspaceName, channelId, access);
    target = { channelId: access.channel.id, workspaceId: access.workspace.id };
  }
  const stored = await postChannelMessage(ctx, user, target, input, CHAT_ROLES);
  if (!stored) {
    // Access went away between the lookup and the insert, or the channel was archived: a fresh
    // lookup says which (404, 403, or 409 for an archived channel).
    resolved?.forget(workspaceName, channelId);
    authorizePost(await loadChannelForChat(ctx, user, workspaceName, channelId));
    throw notFound(CHAT_MESSAGES.channelNotFound);
  }
  const presented = presentChannelMessage(stored.message);
  options.acknowledge?.(presented);
  if (stored.created) {
    await publisher.announceCreated(user.id, presented);
    await emitMessageCreated(ctx, createdEvent(target, stored.message));
  }
  return { message: presented, created: stored.created };
}

/** Edit: the sender only (readers of the channel get 403, everyone else 404). */
export async function editChannelMessage(
  ctx: AppContext,
  publisher: ChannelPublisher,
  user: SessionUser,
  ref: ChannelRef & { messageId: string },
  content: string,
): Promise<ChannelMessage> {
  const access = await loadChannelForChat(ctx, user, ref.workspaceName, ref.channelId);
  authorizePost(access);
  const handle = channelMessageHandle(ctx, access.channel.id, ref.messageId);
  // An announcement is the server's wording, not its actor's message.
  if ((await handle.load()).kind === 'system') throw forbidden(CHAT_MESSAGES.notYourMessage);
  const presented = presentChannelMessage(await editMessage(ctx, handle, user.id, content));
  publisher.announceUpdate(presented);
  return presented;
}

/** Delete: the sender, or a moderator of the workspace. */
export async function deleteChannelMessage(
  ctx: AppContext,
  publisher: ChannelPublisher,
  user: SessionUser,
  ref: ChannelRef & { messageId: string },
): Promise<ChannelMessage> {
  const access = await loadChannelForChat(ctx, user, ref.workspaceName, ref.channelId);
  refuseIfArchived(access);
  const handle = channelMessageHandle(ctx, access.channel.id, ref.messageId);
  const presented = presentChannelMessage(await deleteMessage(ctx, handle, user.id, mayModerate(access)));
  publisher.announceUpdate(presented);
  return presented;
}

/** Adds (`on`) or removes the caller's reaction; only a real change is announced. */
export async function reactToChannelMessage(
  ctx: AppContext,
  publisher: ChannelPublisher,
  user: SessionUser,
  ref: ChannelRef & { messageId: string },
  emoji: string,
  on: boolean,
): Promise<ChannelMessage> {
  const access = await loadChannelForChat(ctx, user, ref.workspaceName, ref.channelId);
  authorizePost(access);
  const handle = channelMessageHandle(ctx, access.channel.id, ref.messageId);
  const result = await setReaction(ctx, handle, user.id, emoji, on);
  const presented = presentChannelMessage(result.message);
  if (result.changed) publisher.announceUpdate(presented);
  return presented;
}
