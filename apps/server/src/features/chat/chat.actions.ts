import { CHAT_MESSAGES, type ChannelMessage } from '@cohort/shared/chat';
import { displayName } from '@cohort/shared/names';
import { type ChannelPinsChangedEvent, PIN_MESSAGES, pinAnnouncement } from '@cohort/shared/pins';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { deleteMessage, editMessage, setReaction } from '../messaging/messaging.access.ts';
import { createdEvent, emitMessageCreated } from './chat.events.ts';
import {
  authorizePin,
  authorizePost,
  loadChannelForChat,
  mayModerate,
  type ResolvedChannels,
  refuseIfArchived,
} from './chat.policy.ts';
import { presentChannelMessage } from './chat.presenter.ts';
import {
  type ChannelTarget,
  channelMessageHandle,
  loadMessageInChannel,
  postChannelMessage,
  postSystemMessage,
} from './chat.service.ts';
import { pinCount, setPin, unpinDeleted } from './pins.service.ts';

/**
 * One function per use case on a channel's messages: check access through the policy, write,
 * present, publish. HTTP routes and socket handlers call these and do nothing else.
 */

/** Where results go after a commit (the `/chat` namespace). */
export interface ChannelPublisher {
  /** A new message, and for a thread reply its parent's new state; ends the sender's typing. */
  announceCreated(senderId: string, message: ChannelMessage): Promise<void>;
  /** A message's new state (edit, delete, reaction, pin) to its channel's room. */
  announceUpdate(message: ChannelMessage): void;
  /** A channel's pins changed (pinned, unpinned, a pinned message deleted): to its room. */
  announcePins(event: ChannelPinsChangedEvent): void;
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
  const stored = await postChannelMessage(ctx, user, target, input);
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
  // A deleted message keeps no pin.
  if (await unpinDeleted(ctx, access.channel.id, presented._id)) {
    publisher.announcePins(await pinsEvent(ctx, access.workspace.id, access.channel.id));
  }
  return presented;
}

async function pinsEvent(ctx: AppContext, workspaceId: string, channelId: string) {
  return { workspaceId, channelId, count: await pinCount(ctx, channelId) };
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

/**
 * Pins (`on`) or unpins a message of the channel: `pinMessages` (403 for viewers), not in an archived
 * channel (409), a live message that is not an announcement (400). Idempotent: a repeated pin or
 * unpin answers the message as it is and announces nothing. A pin is announced in the channel ("Ada
 * pinned a message"), then the message's new state and the channel's pin count go to its room.
 */
export async function pinChannelMessage(
  ctx: AppContext,
  publisher: ChannelPublisher,
  user: SessionUser,
  ref: ChannelRef & { messageId: string },
  on: boolean,
): Promise<ChannelMessage> {
  const access = await loadChannelForChat(ctx, user, ref.workspaceName, ref.channelId);
  authorizePin(access);
  const channelId = access.channel.id;
  const message = await loadMessageInChannel(ctx, channelId, ref.messageId);
  if (on && (message.kind === 'system' || message.deletedAt)) throw badRequest(PIN_MESSAGES.notPinnable);
  const result = await setPin(ctx, channelId, message.id, user.id, on);
  const presented = presentChannelMessage(await loadMessageInChannel(ctx, channelId, message.id));
  if (!result.changed) return presented;
  publisher.announceUpdate(presented);
  publisher.announcePins({ workspaceId: access.workspace.id, channelId, count: result.count });
  if (on) {
    const stored = await postSystemMessage(ctx, channelId, user.id, pinAnnouncement(displayName(user)));
    if (stored) await publisher.announceCreated(user.id, presentChannelMessage(stored));
  }
  return presented;
}
