import type { WorkspaceInvitation } from '@cohort/shared/invitations';
import { roleCan } from '@cohort/shared/permissions';
import type {
  AddMemberBody,
  Channel,
  CreateChannelBody,
  CreateWorkspaceBody,
  MemberListItem,
  WorkspaceDetail,
  WorkspaceRole,
  WorkspaceSummary,
} from '@cohort/shared/workspaces';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** Workspace names are the URL key; any character may appear in them, so they are always encoded. */
export const workspacePath = (name: string) => `/workspace/${encodeURIComponent(name)}`;
export const channelPath = (workspaceName: string, channelId: string) =>
  `${workspacePath(workspaceName)}/channel/${encodeURIComponent(channelId)}`;
const apiPath = (name: string) => `/api/workspaces/${encodeURIComponent(name)}`;

export const workspaceKeys = {
  all: ['workspaces'] as const,
  list: () => [...workspaceKeys.all, 'list'] as const,
  /** Names are matched case-insensitively by the server, so the key is too. */
  detail: (name: string) => [...workspaceKeys.all, 'detail', name.toLowerCase()] as const,
  members: (name: string) => [...workspaceKeys.all, 'members', name.toLowerCase()] as const,
  invitations: (name: string) => [...workspaceKeys.all, 'invitations', name.toLowerCase()] as const,
};

export const workspacesQuery = queryOptions({
  queryKey: workspaceKeys.list(),
  queryFn: ({ signal }) => api.get<WorkspaceSummary[]>('/api/workspaces', signal),
});

export const workspaceQuery = (name: string) =>
  queryOptions({
    queryKey: workspaceKeys.detail(name),
    queryFn: ({ signal }) => api.get<WorkspaceDetail>(apiPath(name), signal),
  });

export const membersQuery = (name: string) =>
  queryOptions({
    queryKey: workspaceKeys.members(name),
    queryFn: ({ signal }) => api.get<MemberListItem[]>(`${apiPath(name)}/members`, signal),
  });

/** The workspace's pending invitations (admins only). */
export const workspaceInvitationsQuery = (name: string) =>
  queryOptions({
    queryKey: workspaceKeys.invitations(name),
    queryFn: ({ signal }) => api.get<WorkspaceInvitation[]>(`${apiPath(name)}/invitations`, signal),
  });

/** What each role may do in the interface; the server's policy table is the authority. */
// The server's permission table (packages/shared/src/permissions.ts) decides what is offered.
export const canCreateChannel = (role: WorkspaceRole) => roleCan(role, 'createChannel');
export const canManageMembers = (role: WorkspaceRole) => roleCan(role, 'manageMembers');

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWorkspaceBody) => api.post<WorkspaceDetail>('/api/workspaces', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.all }),
  });
}

export function useCreateChannel(workspaceName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateChannelBody) => api.post<Channel>(`${apiPath(workspaceName)}/channels`, body),
    onSuccess: (channel) => {
      // The new channel is in the sidebar at once (so navigating to it never flashes "not found"),
      // and the refetch that follows is awaited before the caller's onSuccess runs.
      queryClient.setQueryData(workspaceKeys.detail(workspaceName), (old: WorkspaceDetail | undefined) =>
        old && !old.chat.channels.some((c) => c._id === channel._id)
          ? { ...old, chat: { channels: [...old.chat.channels, channel] } }
          : old,
      );
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(workspaceName) });
    },
  });
}

/** Member changes alter the member list, the workspace's embedded members and the dashboard cards. */
function useInvalidateMembers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: workspaceKeys.all });
}

export function useAddMember(workspaceName: string) {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (body: AddMemberBody) => api.post<MemberListItem>(`${apiPath(workspaceName)}/members`, body),
    onSuccess: invalidate,
  });
}

export function useChangeRole(workspaceName: string) {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: WorkspaceRole }) =>
      api.patch<MemberListItem>(`${apiPath(workspaceName)}/members/${encodeURIComponent(userId)}`, { role }),
    onSettled: invalidate,
  });
}

/** A new expiry and a new e-mail for a pending invitation. */
export function useResendInvitation(workspaceName: string) {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (email: string) =>
      api.post<WorkspaceInvitation>(
        `${apiPath(workspaceName)}/invitations/${encodeURIComponent(email)}/resend`,
        {},
      ),
    onSettled: invalidate,
  });
}

export function useRevokeInvitation(workspaceName: string) {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (email: string) =>
      api.delete<null>(`${apiPath(workspaceName)}/invitations/${encodeURIComponent(email)}`),
    onSettled: invalidate,
  });
}

/**
 * The caller leaves the workspace. Only the list is refreshed here: the workspace's own queries answer
 * 404 from now on, and refetching them while its page is still shown would flash that error.
 */
export function useLeaveWorkspace(workspaceName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<null>(`${apiPath(workspaceName)}/leave`, {}),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });
}

/** Members who joined are removed by id; invitations (no account yet) by e-mail. */
export function useRemoveMember(workspaceName: string) {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (member: MemberListItem) =>
      member._id
        ? api.delete<null>(`${apiPath(workspaceName)}/members/${encodeURIComponent(member._id)}`)
        : api.delete<null>(`${apiPath(workspaceName)}/invitations/${encodeURIComponent(member.email)}`),
    onSuccess: invalidate,
  });
}
