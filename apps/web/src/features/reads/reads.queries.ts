import type { ChannelUnread, DirectUnread } from '@cohort/shared/reads';
import { UNREAD_CAP } from '@cohort/shared/reads.constants';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { parsedWith } from '../../lib/live.ts';

/**
 * Read marks live on the server (packages/shared/src/reads.ts). One cached listing per workspace and
 * one for direct conversations; the answers of our own PUTs and the `readMarkChanged` pushes (which
 * carry the same shapes) are written into them, so every view of a conversation agrees.
 */

const workspaceApi = (name: string) => `/api/workspaces/${encodeURIComponent(name)}`;

export const readKeys = {
  channels: (workspaceName: string) => ['reads', 'channels', workspaceName.toLowerCase()] as const,
  allChannels: ['reads', 'channels'] as const,
  direct: ['reads', 'direct'] as const,
};

export const channelUnreadQuery = (workspaceName: string) =>
  queryOptions({
    queryKey: readKeys.channels(workspaceName),
    queryFn: async ({ signal }) =>
      parsedWith(
        (s) => s.channelUnreadList,
        api.get<unknown>(`${workspaceApi(workspaceName)}/unread`, signal),
      ),
    // The socket keeps it current: refetched on every (re)connection, patched by pushes.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const directUnreadQuery = queryOptions({
  queryKey: readKeys.direct,
  queryFn: ({ signal }) =>
    parsedWith((s) => s.directUnreadList, api.get<unknown>('/api/direct/unread', signal)),
  staleTime: Number.POSITIVE_INFINITY,
});

export async function markChannelRead(workspaceName: string, channelId: string, seq: number) {
  const path = `${workspaceApi(workspaceName)}/channels/${encodeURIComponent(channelId)}/read`;
  return parsedWith((s) => s.channelUnread, api.put<unknown>(path, { seq }, { keepalive: true }));
}

export async function setChannelMuted(workspaceName: string, channelId: string, muted: boolean) {
  const path = `${workspaceApi(workspaceName)}/channels/${encodeURIComponent(channelId)}/mute`;
  return parsedWith((s) => s.channelUnread, api.put<unknown>(path, { muted }));
}

export async function markDirectRead(email: string, seq: number) {
  const path = `/api/direct/${encodeURIComponent(email)}/read`;
  return parsedWith((s) => s.directUnread, api.put<unknown>(path, { seq }, { keepalive: true }));
}

/** Whichever is further along wins: an older answer arriving late never moves a mark back. */
const newer = <T extends { lastReadSeq: number; lastSeq: number }>(old: T, next: T) =>
  next.lastReadSeq > old.lastReadSeq || (next.lastReadSeq === old.lastReadSeq && next.lastSeq >= old.lastSeq)
    ? next
    : { ...old, ...('muted' in next ? { muted: next.muted } : {}) };

/** Writes a channel's new state (a PUT's answer or a push) into every cached workspace listing. */
export function applyChannelUnread(queryClient: QueryClient, state: ChannelUnread) {
  queryClient.setQueriesData<ChannelUnread[]>({ queryKey: readKeys.allChannels }, (list) =>
    list?.map((c) => (c.channelId === state.channelId ? newer(c, state) : c)),
  );
  supersedeInFlight(queryClient, readKeys.allChannels);
}

/**
 * A listing fetch already on its way was answered before this mark moved: landing after it, it would
 * put the old mark back (a count stuck at "2 unread" after the conversation was read, seen in CI). Such
 * a fetch is replaced by a fresh one (`invalidateQueries` cancels the one in flight).
 */
function supersedeInFlight(queryClient: QueryClient, queryKey: readonly string[]) {
  if (queryClient.isFetching({ queryKey }) > 0) void queryClient.invalidateQueries({ queryKey });
}

export function applyDirectUnread(queryClient: QueryClient, state: DirectUnread) {
  queryClient.setQueryData<DirectUnread[]>(readKeys.direct, (list) => {
    if (!list) return list;
    const key = state.email.toLowerCase();
    if (!list.some((d) => d.email.toLowerCase() === key)) return list;
    return list.map((d) => (d.email.toLowerCase() === key ? newer(d, state) : d));
  });
  supersedeInFlight(queryClient, readKeys.direct);
}

/** "3", or "99+" at the cap. */
export function unreadLabel(count: number): string {
  return count >= UNREAD_CAP ? `${UNREAD_CAP - 1}+` : String(count);
}
