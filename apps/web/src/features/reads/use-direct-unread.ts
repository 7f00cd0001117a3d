import { DM_EVENTS, DM_NAMESPACE } from '@cohort/shared/chat.constants';
import { READ_EVENTS } from '@cohort/shared/reads.constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { openLive } from '../../lib/live.ts';
import { applyDirectUnread, directUnreadQuery, readKeys } from './reads.queries.ts';

/**
 * The user's direct conversations with their unread counts, kept live by one `/dm` connection: the
 * listing is refetched on every (re)connection and on every new direct message, and a mark moved in
 * any tab of this user (`readMarkChanged`) is applied at once.
 */
export function useDirectUnread(enabled = true) {
  const queryClient = useQueryClient();
  const listing = useQuery({ ...directUnreadQuery, enabled });
  useEffect(() => {
    if (!enabled) return;
    const refetch = () => queryClient.invalidateQueries({ queryKey: readKeys.direct });
    return openLive(DM_NAMESPACE, (socket, { directUnread }) => {
      socket.on('connect', refetch);
      socket.on(DM_EVENTS.newMessage, refetch);
      socket.on(READ_EVENTS.readMarkChanged, (raw: unknown) => {
        const parsed = directUnread.safeParse(raw);
        if (parsed.success) applyDirectUnread(queryClient, parsed.data);
      });
      return undefined;
    });
  }, [enabled, queryClient]);
  return listing;
}
