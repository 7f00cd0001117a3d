import type { MentionCounts, NotificationPage } from '@cohort/shared/notifications';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api.ts';

export const notificationKeys = {
  all: ['notifications'] as const,
  feed: () => ['notifications', 'feed'] as const,
  mentions: (workspace: string) => ['notifications', 'mentions', workspace] as const,
};

/** The newest page of the caller's notifications (message and task ones), with the unread count. */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.feed(),
    queryFn: ({ signal }) => api.get<NotificationPage>('/api/notifications?limit=30', signal),
  });

/** Unread mentions per channel of a workspace (the sidebar's "@2" badges). */
export const mentionsQuery = (workspace: string) =>
  queryOptions({
    queryKey: notificationKeys.mentions(workspace),
    queryFn: ({ signal }) =>
      api.get<MentionCounts>(`/api/workspaces/${encodeURIComponent(workspace)}/mentions`, signal),
  });

/** The bell's feed again, after something read notifications elsewhere (a direct conversation's mark moved). */
export const refreshNotificationFeed = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: notificationKeys.feed() });

/** Marks notifications read (ids, a channel's mentions, or all) and refreshes bell and badges. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { ids: string[] } | { channelId: string } | 'all') =>
      target === 'all'
        ? api.post<{ updated: number }>('/api/notifications/read-all', {})
        : api.post<{ updated: number }>('/api/notifications/read', target),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

/**
 * While a channel is open, its unread mentions are read: whenever the workspace's mention counts show
 * some for it (also after a live one arrived), they are marked read.
 */
export function useClearChannelMentions(workspace: string, channelId: string, enabled: boolean) {
  const counts = useQuery({ ...mentionsQuery(workspace), enabled });
  const count = counts.data?.find((m) => m.channelId === channelId)?.count ?? 0;
  const markRead = useMarkNotificationsRead();
  const { mutate } = markRead;
  useEffect(() => {
    if (enabled && count > 0) mutate({ channelId });
  }, [enabled, count, channelId, mutate]);
}
