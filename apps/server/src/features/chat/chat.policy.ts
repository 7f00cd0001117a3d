import { CHAT_MESSAGES } from '@cohort/shared/chat';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../http/errors.ts';
import { type Caller, type ChannelAccess, loadChannelForUser } from '../workspaces/workspaces.access.ts';
import { roleCan } from '../workspaces/workspaces.policy.ts';

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
}
