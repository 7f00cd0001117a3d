import type { BrowseChannel, ChannelInfo, ChannelMemberItem } from '@cohort/shared/channels';
import type {
  Channel,
  MemberListItem,
  ProfileResponse,
  WorkspaceDetail,
  WorkspaceMember,
  WorkspaceSummary,
} from '@cohort/shared/workspaces';
import type { BrowseChannelView, ChannelMemberView, ChannelView } from './channels.service.ts';
import type { MemberView } from './members.service.ts';
import type { ProfileView } from './profile.service.ts';
import type { ChannelRow } from './workspaces.access.ts';
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
    topic: v.channel.topic,
    archived: v.channel.archivedAt !== null,
    joined: v.joined,
    starred: v.starred,
  };
}

/** The shared fields of a channel, for events every reader receives alike. */
export function presentChannelInfo(c: ChannelRow): ChannelInfo {
  return {
    _id: c.id,
    workspaceId: c.workspaceId,
    name: c.name,
    description: c.description,
    topic: c.topic,
    private: c.isPrivate,
    archived: c.archivedAt !== null,
  };
}

export function presentBrowseChannel(v: BrowseChannelView): BrowseChannel {
  return {
    _id: v.channel.id,
    name: v.channel.name,
    description: v.channel.description,
    topic: v.channel.topic,
    private: v.channel.isPrivate,
    archived: v.channel.archivedAt !== null,
    memberCount: v.memberCount,
    joined: v.joined,
  };
}

export function presentChannelMember(m: ChannelMemberView): ChannelMemberItem {
  return {
    _id: m.id,
    email: m.email,
    firstName: m.firstName,
    lastName: m.lastName,
    role: m.role,
    isCreator: m.isCreator,
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
