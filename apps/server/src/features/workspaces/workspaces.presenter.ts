import type {
  Channel,
  MemberListItem,
  ProfileResponse,
  WorkspaceDetail,
  WorkspaceMember,
  WorkspaceSummary,
} from '@cohort/shared/workspaces';
import type { ChannelView } from './channels.service.ts';
import type { MemberView } from './members.service.ts';
import type { ProfileView } from './profile.service.ts';
import type { WorkspaceDetailView, WorkspaceView } from './workspaces.service.ts';

/** The only shapes in which workspaces, members, channels and profiles leave the server. */

export function presentWorkspaceMember(m: MemberView): WorkspaceMember {
  return { userId: m.userId, email: m.email, role: m.role, status: m.status };
}

/** Invited e-mails have no account yet: `_id` is null and the names are empty. */
export function presentMemberListItem(m: MemberView): MemberListItem {
  return {
    _id: m.userId,
    email: m.email,
    firstName: m.firstName,
    lastName: m.lastName,
    role: m.role,
    status: m.status,
  };
}

export function presentWorkspaceSummary(v: WorkspaceView): WorkspaceSummary {
  return {
    _id: v.workspace.id,
    name: v.workspace.name,
    description: v.workspace.description,
    createdBy: v.creatorEmail,
    members: v.members.map(presentWorkspaceMember),
    createdAt: v.workspace.createdAt.toISOString(),
  };
}

export function presentChannel(v: ChannelView): Channel {
  return {
    _id: v.channel.id,
    workspaceId: v.channel.workspaceId,
    name: v.channel.name,
    description: v.channel.description,
    private: v.channel.isPrivate,
    members: v.memberIds,
    createdBy: v.channel.createdBy,
    createdAt: v.channel.createdAt.toISOString(),
  };
}

export function presentWorkspaceDetail(v: WorkspaceDetailView): WorkspaceDetail {
  return {
    ...presentWorkspaceSummary(v),
    role: v.role,
    chat: { channels: v.channels.map(presentChannel) },
  };
}

export function presentProfile(v: ProfileView): ProfileResponse {
  const { user } = v;
  return {
    user: {
      _id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      role: user.role,
      phone: user.phone,
    },
    workspaces: v.workspaces.map((w) => ({ _id: w.id, name: w.name, description: w.description })),
  };
}
