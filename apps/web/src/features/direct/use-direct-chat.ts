import type { DirectMessage } from '@cohort/shared/chat';
import {
  DM_EVENTS,
  DM_HISTORY_LIMIT,
  DM_NAMESPACE,
  TRANSIENT_SEND_REASONS,
} from '@cohort/shared/chat.constants';
import type { StoredFile } from '@cohort/shared/files';
import { SAVED_EVENTS } from '@cohort/shared/saved.constants';
import { useQueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import { api } from '../../lib/api.ts';
import {
  ACK_TIMEOUT_MS,
  type ConversationSource,
  type ConversationState,
} from '../../lib/conversation-store.ts';
import { type LiveClient, loadLive } from '../../lib/live.ts';
import type { ConnectionState } from '../../lib/socket-state.ts';
import { messageActions, useConversation } from '../messaging/messaging.public.ts';
import { refreshSaved } from '../saved/saved.public.ts';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Where a user's unsent direct messages to one person wait across reloads. */
export const directOutboxKey = (userId: string, otherEmail: string) =>
  `cohort.outbox.${userId}.dm.${otherEmail.toLowerCase()}`;

export const directHistoryPath = (myEmail: string) => `/api/messages/${encodeURIComponent(myEmail)}`;

function directSource(
  socket: Socket,
  { directMessageList, sendDirectMessageAck }: LiveClient,
  myEmail: string,
  otherEmail: string,
): ConversationSource<DirectMessage> {
  const history = async (query: Record<string, number>) => {
    const params = new URLSearchParams({ with: otherEmail });
    for (const [k, v] of Object.entries(query)) params.set(k, String(v));
    return directMessageList.parse(await api.get<unknown>(`${directHistoryPath(myEmail)}?${params}`));
  };
  return {
    latest: (limit) => history({ limit }),
    after: (after, limit) => history({ after, limit }),
    before: (before, limit) => history({ before, limit }),
    changes: (changedAfter, limit) => history({ changedAfter, limit }),
    around: (around, limit) => history({ around, limit }),
    send: async (clientId, content, attachments) =>
      sendDirectMessageAck.parse(
        await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(DM_EVENTS.sendMessage, {
          content,
          receiverEmail: otherEmail,
          clientId,
          messageType: 'text',
          attachments,
        }),
      ),
    isConnected: () => socket.connected,
  };
}

export interface DirectChat {
  state: ConversationState<DirectMessage>;
  connection: ConnectionState;
  send: (content: string, attachments?: StoredFile[]) => void;
  retry: (clientId: string) => void;
  discard: (clientId: string) => void;
  loadOlder: () => void;
  reload: () => void;
  edit: (messageId: string, content: string) => Promise<DirectMessage>;
  remove: (messageId: string) => Promise<DirectMessage>;
  react: (messageId: string, emoji: string, on: boolean) => Promise<DirectMessage>;
}

/**
 * One direct conversation over `/dm` (SPEC §4 "Direct chat"), with the same guarantees as a channel:
 * history (the newest 50) by REST, backfill `after=` on every (re)connection and detected gap, an
 * outbox resent with the same clientId. The session puts the socket in the user's own room, so there
 * is nothing to join; `newMessage` events of other conversations are ignored here.
 */
export function useDirectChat(
  me: { _id: string; email: string },
  otherEmail: string,
  /** Open at this message's seq (a search hit) instead of at the newest page. */
  anchorSeq?: number,
): DirectChat {
  const queryClient = useQueryClient();
  const chat = useConversation(JSON.stringify([me._id, me.email, otherEmail, anchorSeq]), () => ({
    namespace: DM_NAMESPACE,
    source: (socket, live) => directSource(socket, live, me.email, otherEmail),
    options: {
      outboxKey: directOutboxKey(me._id, otherEmail),
      // The flood guard's and a database restart's refusals pass: the outbox waits and resends.
      transientReasons: TRANSIENT_SEND_REASONS,
      pageSize: DM_HISTORY_LIMIT,
      ...(anchorSeq !== undefined ? { anchorSeq } : {}),
    },
    wire: (socket, store, { directMessage }) => {
      const isOurs = (m: DirectMessage) =>
        (same(m.sender, me.email) && same(m.receiver, otherEmail)) ||
        (same(m.sender, otherEmail) && same(m.receiver, me.email));
      socket.on('connect', () => store.onConnected());
      // Saved in another tab of mine: the menus' "Save for later" / "Remove from saved" follow.
      socket.on(SAVED_EVENTS.savedChanged, () => void refreshSaved(queryClient));
      socket.on(DM_EVENTS.newMessage, (raw: unknown) => {
        const parsed = directMessage.safeParse(raw);
        if (parsed.success && isOurs(parsed.data)) store.receive(parsed.data);
      });
      socket.on(DM_EVENTS.messageUpdated, (raw: unknown) => {
        const parsed = directMessage.safeParse(raw);
        if (parsed.success && isOurs(parsed.data)) store.receiveUpdate(parsed.data);
      });
      return { extra: null };
    },
  }));

  return {
    ...chat,
    ...messageActions(
      (id) => `/api/direct-messages/${encodeURIComponent(id)}`,
      async (raw) => (await loadLive()).directMessage.parse(raw),
      (m) => chat.live?.store.receiveUpdate(m),
    ),
  };
}
