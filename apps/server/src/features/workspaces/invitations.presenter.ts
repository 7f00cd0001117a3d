import type { AcceptInvitationResponse, MyInvitation, WorkspaceInvitation } from '@cohort/shared/invitations';
import { displayName } from '@cohort/shared/names';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import type { MyInvitationView, Person, WorkspaceInvitationView } from './invitations.service.ts';
import type { WorkspaceRow } from './workspaces.access.ts';

/** The only shapes in which invitations leave the server. */

const presentPerson = (p: Person | null) => (p ? { name: displayName(p), email: p.email } : null);

export function presentMyInvitation(v: MyInvitationView): MyInvitation {
  return {
    _id: v.invitation.id,
    workspace: { _id: v.workspace.id, name: v.workspace.name, description: v.workspace.description },
    role: v.invitation.role,
    invitedBy: presentPerson(v.inviter),
    createdAt: v.invitation.createdAt.toISOString(),
    expiresAt: v.invitation.expiresAt.toISOString(),
  };
}

export function presentWorkspaceInvitation(v: WorkspaceInvitationView): WorkspaceInvitation {
  return {
    _id: v.invitation.id,
    email: v.invitation.email,
    role: v.invitation.role,
    invitedBy: presentPerson(v.inviter),
    createdAt: v.invitation.createdAt.toISOString(),
    expiresAt: v.invitation.expiresAt.toISOString(),
    expired: v.expired,
  };
}

export function presentAcceptedInvitation(v: {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
}): AcceptInvitationResponse {
  return { workspace: { _id: v.workspace.id, name: v.workspace.name }, role: v.role };
}
