import {
  CHAT_EVENTS,
  CHAT_NAMESPACE,
  type ChannelMessage,
  channelMessage,
  channelMessageList,
} from '@cohort/shared/chat';
import { useEffect, useReducer, useRef, useState } from 'react';
import { api } from '../../lib/api.ts';
import { ACK_TIMEOUT_MS } from '../../lib/conversation-store.ts';
import { connectNamespace } from '../../lib/socket.ts';
import { markRead, readMark, subscribeReadMarks } from './read-marks.ts';
import { channelMessagesPath } from './use-channel-chat.ts';

/** More than this shows as "99+"; it is also the most a count ever fetches. */
export const UNREAD_CAP = 100;

/**
 * Unread counts per channel for the workspace sidebar, while the workspace page is open.
 *
 * The server has no "latest seq per channel" endpoint, so the counts come from the history API and
 * one `/chat` connection:
 * - Each channel's read mark (the last seq this user saw there, in local storage) is moved by the
 *   channel pane as messages show.
 * - After each (re)connection the connection joins every channel the sidebar lists (the channels the
 *   user may read) and fetches `after=<mark>` for each (at most UNREAD_CAP). A channel never opened
 *   on this browser gets its newest seq as its first mark: old history is not news to a newcomer.
 * - While connected, every `newMessage` from someone else in a channel that is not open counts.
 * Unread messages are kept by id, so one both fetched and pushed counts once, and a count is "ids
 * above the mark", so opening a channel (which moves the mark) clears it without bookkeeping.
 */
export function useUnreadCounts(
  workspaceName: string,
  channelIds: string[],
  openChannelId: string | undefined,
  userId: string | undefined,
): Record<string, number> {
  const [unread, setUnread] = useState<Record<string, ReadonlyMap<string, number>>>({});
  const [, marksChanged] = useReducer((n: number) => n + 1, 0);
  const open = useRef(openChannelId);
  useEffect(() => {
    open.current = openChannelId;
  }, [openChannelId]);
  useEffect(() => subscribeReadMarks(marksChanged), []);

  // A string key: the effect reconnects only when the set of channels really changes.
  const idsKey = channelIds.join('\n');

  useEffect(() => {
    if (!userId || !idsKey) return;
    const ids = idsKey.split('\n');
    const socket = connectNamespace(CHAT_NAMESPACE);
    let alive = true;

    const add = (channelId: string, messages: ChannelMessage[]) => {
      const others = messages.filter((m) => m.sender._id !== userId);
      if (!alive || others.length === 0) return;
      setUnread((old) => {
        const map = new Map(old[channelId]);
        for (const m of others) map.set(m._id, m.seq);
        return { ...old, [channelId]: map };
      });
    };

    const catchUp = async (channelId: string) => {
      const ack = (await socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck(CHAT_EVENTS.joinChannel, { channelId, workspaceName })) as { ok?: boolean };
      if (!alive || !ack?.ok) return;
      const path = channelMessagesPath({ workspaceName, channelId });
      const mark = readMark(userId, channelId);
      if (mark === null) {
        const [newest] = channelMessageList.parse(await api.get<unknown>(`${path}?limit=1`));
        if (alive) markRead(userId, channelId, newest?.seq ?? 0);
        return;
      }
      add(
        channelId,
        channelMessageList.parse(await api.get<unknown>(`${path}?after=${mark}&limit=${UNREAD_CAP}`)),
      );
    };

    socket.on('connect', () => {
      for (const id of ids) {
        // A failed count stays as it was until the next reconnection; the sidebar is a hint.
        catchUp(id).catch(() => {});
      }
    });
    socket.on(CHAT_EVENTS.newMessage, (raw: unknown) => {
      const parsed = channelMessage.safeParse(raw);
      if (parsed.success && parsed.data.channel !== open.current) add(parsed.data.channel, [parsed.data]);
    });

    return () => {
      alive = false;
      socket.disconnect();
    };
  }, [workspaceName, idsKey, userId]);

  const counts: Record<string, number> = {};
  if (!userId) return counts;
  for (const [channelId, messages] of Object.entries(unread)) {
    if (channelId === openChannelId) continue;
    const mark = readMark(userId, channelId) ?? 0;
    let n = 0;
    for (const seq of messages.values()) if (seq > mark) n += 1;
    if (n > 0) counts[channelId] = n;
  }
  return counts;
}

/** "3", or "99+" past the cap. */
export function unreadLabel(count: number): string {
  return count >= UNREAD_CAP ? `${UNREAD_CAP - 1}+` : String(count);
}
