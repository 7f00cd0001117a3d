import type { WorkspaceRole } from './workspaces.ts';

/**
 * The workspace permission matrix (docs/permissions.md), as one table. The server's features (chat,
 * tasks, projects, calls) authorize with `roleCan` / `authorize` instead of comparing roles themselves,
 * and the web app asks the same table what to offer.
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
  /** Browse the open channels, join and leave them, star a channel (issue 22). */
  joinChannel: ['viewer', 'editor', 'admin'],
  /** Set the topic of a channel one can read (the name and description stay the creator's or an admin's). */
  setChannelTopic: ['editor', 'admin'],
  archiveChannel: ['admin'],
  /** Add people to, and remove them from, a private channel the admin is listed in. */
  manageChannelMembers: ['admin'],
  viewStorage: ['admin'],
  /** Pin and unpin messages in a channel one can read (issue 22): the roles that write, not viewers. */
  pinMessages: ['editor', 'admin'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;

export type WorkspaceAction = keyof typeof WORKSPACE_PERMISSIONS;

export function roleCan(role: WorkspaceRole, action: WorkspaceAction): boolean {
  return (WORKSPACE_PERMISSIONS[action] as readonly WorkspaceRole[]).includes(role);
}
