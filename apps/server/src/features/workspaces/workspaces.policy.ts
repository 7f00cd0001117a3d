import { roleCan, type WorkspaceAction } from '@cohort/shared/permissions';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import { forbidden } from '../../http/errors.ts';

/** The authorize step of the route pipeline: a member without the role gets 403. */
export function authorize(role: WorkspaceRole, action: WorkspaceAction): void {
  if (!roleCan(role, action)) throw forbidden();
}

/**
 * Private channels are readable by their listed members only (the creator is always listed);
 * workspace admins who are not listed do not see them either. Open channels: every member.
 */
export function canReadChannel(channel: { isPrivate: boolean }, isChannelMember: boolean): boolean {
  return !channel.isPrivate || isChannelMember;
}

/**
 * Renaming or re-describing a channel: workspace admins, and the member who created it while their
 * role may still create channels (a creator demoted to viewer loses it).
 */
export function canEditChannel(
  role: WorkspaceRole,
  channel: { createdBy: string | null },
  userId: string,
): boolean {
  return roleCan(role, 'manageChannels') || (channel.createdBy === userId && roleCan(role, 'createChannel'));
}
