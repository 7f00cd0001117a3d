import { CHANNEL_EVENTS } from '@cohort/shared/channels.constants';
import { CHAT_EVENTS, CHAT_NAMESPACE } from '@cohort/shared/chat.constants';
import { READ_EVENTS } from '@cohort/shared/reads.constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ACK_TIMEOUT_MS } from '../../lib/conversation-store.ts';
import { openLive } from '../../lib/live.ts';
import { applyChannelUnread, channelUnreadQuery, readKeys } from '../reads/reads.public.ts';
import { refreshChannels } from './channel-manage.queries.ts';

export interface SidebarUnread {
  /** Unread messages per channel id (channels without any, muted ones and the open one are absent). */
  counts: Record<string, number>;
  /** Channels the user muted: shown dimmed, never counted. */
  muted: Record<string, boolean>;
}

/**
 * Unread counts per channel for the workspace sidebar, while the workspace page is open.
 *
 * The read marks live on the server (`GET …/unread`: per channel the mark, the newest seq and the
 * count of unread top-level messages from others). One `/chat` connection keeps them live:
 * - after each (re)connection it joins every channel the sidebar lists, then refetches the listing,
 *   so nothing posted while it was away is missed;
 * - every `newMessage` from someone else that is not a thread reply and is newer than the listing's
 *   `lastSeq` adds one (kept by id, so a message pushed twice counts once);
 * - `readMarkChanged` (a mark moved or a mute changed, in this tab or any other of this user) replaces
 *   the channel's entry, which drops the live messages it already covers.
 */
export function useUnreadCounts(
  workspaceName: string,
  channelIds: string[],
  openChannelId: string | undefined,
  userId: string | undefined,
): SidebarUnread {
  const queryClient = useQueryClient();
  const listing = useQuery({ ...channelUnreadQuery(workspaceName), enabled: !!userId });
  const [live, setLive] = useState<Record<string, ReadonlyMap<string, number>>>({});

  // A string key: the effect reconnects only when the set of channels really changes.
  const idsKey = channelIds.join('\n');

  useEffect(() => {
    if (!userId || !idsKey) return;
    const ids = idsKey.split('\n');
    let alive = true;

    const close = openLive(CHAT_NAMESPACE, (socket, { channelMessage, channelUnread }) => {
      socket.on('connect', () => {
        const joins = ids.map((channelId) =>
          socket
            .timeout(ACK_TIMEOUT_MS)
            .emitWithAck(CHAT_EVENTS.joinChannel, { channelId, workspaceName })
            // A channel that cannot be joined just is not counted live; the sidebar is a hint.
            .catch(() => {}),
        );
        Promise.all(joins).then(() => {
          if (alive) queryClient.invalidateQueries({ queryKey: readKeys.channels(workspaceName) });
        });
      });
      socket.on(CHAT_EVENTS.newMessage, (raw: unknown) => {
        const parsed = channelMessage.safeParse(raw);
        if (!parsed.success) return;
        const m = parsed.data;
        // Announcements ("Bob joined the channel") are not news, as on the server.
        if (m.sender._id === userId || m.parentId !== null || m.kind === 'system') return;
        setLive((old) => {
          if (old[m.channel]?.has(m._id)) return old;
          const map = new Map(old[m.channel]);
          map.set(m._id, m.seq);
          return { ...old, [m.channel]: map };
        });
      });
      // Channel management (issue 22): a rename, topic, archive, someone joining or leaving, or losing
      // a private channel refetches what shows channels (the sidebar, the browse view, member lists).
      for (const event of Object.values(CHANNEL_EVENTS)) {
        socket.on(event, () => {
          void refreshChannels(queryClient, workspaceName);
        });
      }
      socket.on(READ_EVENTS.readMarkChanged, (raw: unknown) => {
        const parsed = channelUnread.safeParse(raw);
        if (parsed.success) applyChannelUnread(queryClient, parsed.data);
      });
      return undefined;
    });

    return () => {
      alive = false;
      close();
    };
  }, [workspaceName, idsKey, userId, queryClient]);

  const counts: Record<string, number> = {};
  const muted: Record<string, boolean> = {};
  for (const entry of listing.data ?? []) {
    if (entry.muted) muted[entry.channelId] = true;
    if (entry.muted || entry.channelId === openChannelId) continue;
    const counted = Math.max(entry.lastReadSeq, entry.lastSeq);
    let n = entry.unread;
    for (const seq of live[entry.channelId]?.values() ?? []) if (seq > counted) n += 1;
    if (n > 0) counts[entry.channelId] = n;
  }
  return { counts, muted };
}
