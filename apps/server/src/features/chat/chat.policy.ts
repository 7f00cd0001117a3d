import { CHANNEL_MESSAGES } from '@cohort/shared/channels';
import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { roleCan, WORKSPACE_PERMISSIONS } from '@cohort/shared/permissions';
import type { AppContext } from '../../context.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import { SocketMemory } from '../../realtime/socket-memory.ts';
import { type Caller, type ChannelAccess, loadChannelForUser } from '../workspaces/workspaces.access.ts';

/**
 * Reading a channel's messages is reading the channel (404 otherwise, private channels included,
 * decided by `loadChannelForUser`); posting also needs a role that may chat (every role today, per
 * docs/permissions.md, but the check stays so the matrix is the one place that decides).
 */
export function loadChannelForChat(
  ctx: AppContext,
  caller: Caller,
  workspaceNameOrId: string,
  channelId: string,
): Promise<ChannelAccess> {
  return loadChannelForUser(ctx, caller, workspaceNameOrId, channelId);
}

export function authorizePost(access: ChannelAccess): void {
  if (!roleCan(access.role, 'chat')) throw forbidden(CHAT_MESSAGES.notAllowed);
  refuseIfArchived(access);
}

/**
 * Pinning and unpinning: a reader of the channel whose role may pin (`pinMessages`: editors and
 * admins; viewers get 403), in a channel that is not archived (409, like every write).
 */
export function authorizePin(access: ChannelAccess): void {
  if (!roleCan(access.role, 'pinMessages')) throw forbidden();
  refuseIfArchived(access);
}

/**
 * An archived channel is read-only (docs/permissions.md, "Archived channels"): sending, replying,
 * editing, deleting and reacting answer 409 with a message that says why, over HTTP and sockets alike.
 */
export function refuseIfArchived(access: ChannelAccess): void {
  if (access.channel.archivedAt) throw conflict(CHANNEL_MESSAGES.archived);
}

/** The roles that may chat, for the guard the insert statement re-checks (chat.service.ts). */
export const CHAT_ROLES: readonly string[] = WORKSPACE_PERMISSIONS.chat;

/**
 * Sends go straight to the guarded insert: the channel a socket resolved (on join or on its first
 * send) is remembered for the socket's life, keyed by what the client names it with. The insert
 * re-checks access itself (membership, a role that may chat, the private channel's list, not
 * archived), so a stale entry can never let a message through: a refusal forgets it, and a fresh
 * lookup says why. No expiry: people send minutes apart, and with the 30 s one this had, nearly
 * every real message paid a lookup before its insert (two round trips instead of one).
 */
export class ResolvedChannels {
  private readonly memory: SocketMemory<{ channelId: string; workspaceId: string }>;
  constructor(max = 100) {
    this.memory = new SocketMemory(max);
  }

  private key = (workspaceName: string, channelId: string) => `${workspaceName}\u0000${channelId}`;

  get(workspaceName: string, channelId: string) {
    return this.memory.get(this.key(workspaceName, channelId));
  }

  remember(workspaceName: string, channelId: string, access: ChannelAccess) {
    this.memory.remember(this.key(workspaceName, channelId), {
      channelId: access.channel.id,
      workspaceId: access.workspace.id,
    });
  }

  forget(workspaceName: string, channelId: string) {
    this.memory.forget(this.key(workspaceName, channelId));
  }
}

/** Deleting someone else's message is moderation: workspace roles that manage channels. */
export function mayModerate(access: ChannelAccess): boolean {
  return roleCan(access.role, 'manageChannels');
}
