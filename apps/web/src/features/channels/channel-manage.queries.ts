import type { BrowseChannel, ChannelMemberItem } from '@cohort/shared/channels';
import { roleCan } from '@cohort/shared/permissions';
import type { Channel, UpdateChannelBody, WorkspaceRole } from '@cohort/shared/workspaces';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { workspaceQuery } from '../workspaces/workspaces.public.ts';

/**
 * Managing channels (issue 22): the browse view, the member list, joining, leaving, renaming, the
 * topic, archiving, stars and private-channel members. The server decides (docs/permissions.md); these
 * helpers only decide what to offer.
 */

const channelApi = (workspaceName: string, channelId = '') =>
  `/api/workspaces/${encodeURIComponent(workspaceName)}/channels${channelId ? `/${encodeURIComponent(channelId)}` : ''}`;

export const channelManageKeys = {
  all: (workspaceName: string) => ['channel-manage', workspaceName.toLowerCase()] as const,
  browse: (workspaceName: string) => [...channelManageKeys.all(workspaceName), 'browse'] as const,
  members: (workspaceName: string, channelId: string) =>
    [...channelManageKeys.all(workspaceName), 'members', channelId] as const,
};

export const browseChannelsQuery = (workspaceName: string) =>
  queryOptions({
    queryKey: channelManageKeys.browse(workspaceName),
    queryFn: ({ signal }) => api.get<BrowseChannel[]>(`${channelApi(workspaceName)}/browse`, signal),
  });

export const channelMembersQuery = (workspaceName: string, channelId: string) =>
  queryOptions({
    queryKey: channelManageKeys.members(workspaceName, channelId),
    queryFn: ({ signal }) =>
      api.get<ChannelMemberItem[]>(`${channelApi(workspaceName, channelId)}/members`, signal),
  });

/** After any change (ours, or one pushed live): the sidebar, the browse view and member lists refetch. */
export function refreshChannels(queryClient: QueryClient, workspaceName: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: workspaceQuery(workspaceName).queryKey }),
    queryClient.invalidateQueries({ queryKey: channelManageKeys.all(workspaceName) }),
  ]);
}

/** What the caller may change about a channel (the server's rules, docs/permissions.md). */
export function channelAbilities(role: WorkspaceRole, channel: Channel, userId: string | undefined) {
  const mayEdit =
    roleCan(role, 'manageChannels') || (channel.createdBy === userId && roleCan(role, 'createChannel'));
  return {
    rename: mayEdit && !channel.archived,
    topic: (mayEdit || roleCan(role, 'setChannelTopic')) && !channel.archived,
    archive: roleCan(role, 'archiveChannel'),
    manageMembers: channel.private && roleCan(role, 'manageChannelMembers') && !channel.archived,
    join: !channel.private && !channel.archived && !channel.joined,
    leave: channel.joined,
  };
}

type Action =
  | { kind: 'join' | 'leave' | 'archive' | 'unarchive' }
  | { kind: 'star'; starred: boolean }
  | { kind: 'update'; body: UpdateChannelBody }
  | { kind: 'addMembers'; userIds: string[] }
  | { kind: 'removeMember'; userId: string };

function run(workspaceName: string, channelId: string, action: Action): Promise<unknown> {
  const base = channelApi(workspaceName, channelId);
  switch (action.kind) {
    case 'join':
    case 'leave':
    case 'archive':
    case 'unarchive':
      return api.post(`${base}/${action.kind}`, {});
    case 'star':
      return action.starred ? api.put(`${base}/star`) : api.delete(`${base}/star`);
    case 'update':
      return api.patch(base, action.body);
    case 'addMembers':
      return api.post(`${base}/members`, { userIds: action.userIds });
    case 'removeMember':
      return api.delete(`${base}/members/${encodeURIComponent(action.userId)}`);
  }
}

/** One mutation for every channel action; everything that shows channels refetches after it. */
export function useChannelAction(workspaceName: string, channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: Action) => run(workspaceName, channelId, action),
    onSettled: () => refreshChannels(queryClient, workspaceName),
  });
}
