import type { WorkspaceRole } from '@cohort/shared/workspaces';
import { forbidden } from '../../http/errors.ts';

/**
 * The workspace permission matrix (docs/permissions.md), as one table. Other features (chat, tasks,
 * projects, calls) authorize with `roleCan` / `authorize` instead of comparing roles themselves.
 * Being a member at all (reading the workspace) is decided by `loadWorkspaceForUser`, which answers
 * 404 to non-members; this table only ranks members.
 */
export const WORKSPACE_PERMISSIONS = {
  readWorkspace: ['viewer', 'editor', 'admin'],
  /** Any member may leave (the last admin is refused by the service, not by role). */
  leaveWorkspace: ['viewer', 'editor', 'admin'],
  readOpenChannel: ['viewer', 'editor', 'admin'],
  chat: ['viewer', 'editor', 'admin'],
  comment: ['viewer', 'editor', 'admin'],
  createChannel: ['editor', 'admin'],
  addProject: ['editor', 'admin'],
  assignItem: ['editor', 'admin'],
  deleteProject: ['admin'],
  /** Adding (inviting), removing, and seeing, resending and revoking pending invitations. */
  manageMembers: ['admin'],
  manageRoles: ['admin'],
  editWorkspace: ['admin'],
  deleteWorkspace: ['admin'],
  manageChannels: ['admin'],
  viewStorage: ['admin'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;

export type WorkspaceAction = keyof typeof WORKSPACE_PERMISSIONS;

export function roleCan(role: WorkspaceRole, action: WorkspaceAction): boolean {
  return (WORKSPACE_PERMISSIONS[action] as readonly WorkspaceRole[]).includes(role);
}

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
