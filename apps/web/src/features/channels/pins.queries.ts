import type { ChannelPin } from '@cohort/shared/pins';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/**
 * A channel's pinned messages (issue 22). The header's Pins button counts them and the Pins panel
 * lists them; both refetch on `channelPinsChanged` and after every (re)connection (use-channel-chat.ts).
 */

const pinsPath = (workspaceName: string, channelId: string) =>
  `/api/workspaces/${encodeURIComponent(workspaceName)}/channels/${encodeURIComponent(channelId)}/pins`;

export const pinKeys = {
  channel: (workspaceName: string, channelId: string) =>
    ['pins', workspaceName.toLowerCase(), channelId] as const,
};

export const channelPinsQuery = (workspaceName: string, channelId: string) =>
  queryOptions({
    queryKey: pinKeys.channel(workspaceName, channelId),
    queryFn: ({ signal }) => api.get<ChannelPin[]>(pinsPath(workspaceName, channelId), signal),
  });

export function refreshPins(queryClient: QueryClient, workspaceName: string, channelId: string) {
  return queryClient.invalidateQueries({ queryKey: pinKeys.channel(workspaceName, channelId) });
}
