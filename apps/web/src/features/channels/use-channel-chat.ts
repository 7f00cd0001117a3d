import { CHANNEL_EVENTS } from '@cohort/shared/channels.constants';
import type { ChannelMessage } from '@cohort/shared/chat';
import {
  CHAT_EVENTS,
  CHAT_NAMESPACE,
  TRANSIENT_SEND_REASONS,
  TYPING_EXPIRE_MS,
} from '@cohort/shared/chat.constants';
import type { StoredFile } from '@cohort/shared/files';
import { PIN_EVENTS } from '@cohort/shared/pins.constants';
import { SAVED_EVENTS } from '@cohort/shared/saved.constants';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
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
import { refreshChannels } from './channel-manage.queries.ts';
import { refreshPins } from './pins.queries.ts';
import { TypingAnnouncer } from './typing.ts';

export interface TypingUser {
  userId: string;
  email: string;
}

interface ChannelRef {
  workspaceName: string;
  channelId: string;
}

/** Where a user's unsent messages for one channel wait across reloads. */
export const channelOutboxKey = (userId: string, channelId: string) =>
  `cohort.outbox.${userId}.channel.${channelId}`;

export const channelMessagesPath = ({ workspaceName, channelId }: ChannelRef) =>
  `/api/workspaces/${encodeURIComponent(workspaceName)}/channels/${encodeURIComponent(channelId)}/messages`;

function channelSource(
  socket: Socket,
  { channelMessageList, sendChannelMessageAck }: LiveClient,
  ref: ChannelRef,
): ConversationSource<ChannelMessage> {
  const history = async (query: Record<string, number>) => {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return channelMessageList.parse(await api.get<unknown>(`${channelMessagesPath(ref)}?${params}`));
  };
  return {
    latest: (limit) => history({ limit }),
    after: (after, limit) => history({ after, limit }),
    around: (around, limit) => history({ around, limit }),
    before: (before, limit) => history({ before, limit }),
    changes: (changedAfter, limit) => history({ changedAfter, limit }),
    send: async (clientId, content, attachments) =>
      sendChannelMessageAck.parse(
        // With a timeout Socket.IO rejects at once when the connection drops, instead of never answering.
        await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(CHAT_EVENTS.sendMessage, {
          ...ref,
          clientId,
          message: { content, attachments },
        }),
      ),
    isConnected: () => socket.connected,
  };
}

const parseMessage = async (raw: unknown) => (await loadLive()).channelMessage.parse(raw);

export interface ChannelChat {
  state: ConversationState<ChannelMessage>;
  connection: ConnectionState;
  /** The server refused to let us into the channel (not a member any more, channel gone). */
  joinError: string | null;
  typingUsers: TypingUser[];
  send: (content: string, attachments?: StoredFile[]) => void;
  retry: (clientId: string) => void;
  discard: (clientId: string) => void;
  loadOlder: () => void;
  reload: () => void;
  /** Feed it the composer's value on every change (typing announcements). */
  onInput: (value: string) => void;
  /** Message actions; each resolves with the message's new state (already applied) or throws. */
  edit: (messageId: string, content: string) => Promise<ChannelMessage>;
  remove: (messageId: string) => Promise<ChannelMessage>;
  react: (messageId: string, emoji: string, on: boolean) => Promise<ChannelMessage>;
  /** Pins (`on`) or unpins the message (editors and admins). */
  pin: (messageId: string, on: boolean) => Promise<ChannelMessage>;
  reply: (parentId: string, content: string) => Promise<ChannelMessage>;
}

/**
 * One channel's live conversation (SPEC §4 "Channel chat"): a fresh `/chat` connection while the
 * channel is shown, the channel joined after every (re)connection and then backfilled, left and
 * disconnected when the channel changes or the pane goes away. What differs from a direct
 * conversation: the join, typing announcements and thread replies.
 */
export function useChannelChat(
  workspaceName: string,
  channelId: string,
  userId: string,
  /** Open at this message's seq (a search hit) instead of at the newest page. */
  anchorSeq?: number,
): ChannelChat {
  const queryClient = useQueryClient();
  const [joinError, setJoinError] = useState<string | null>(null);
  const [typing, setTyping] = useState<Map<string, TypingUser>>(() => new Map());
  const ref: ChannelRef = { workspaceName, channelId };

  const chat = useConversation(JSON.stringify([workspaceName, channelId, userId, anchorSeq]), () => ({
    namespace: CHAT_NAMESPACE,
    source: (socket, live) => channelSource(socket, live, ref),
    options: {
      outboxKey: channelOutboxKey(userId, channelId),
      // The flood guard's and a database restart's refusals pass: the outbox waits and resends.
      transientReasons: TRANSIENT_SEND_REASONS,
      ...(anchorSeq !== undefined ? { anchorSeq } : {}),
    },
    wire: (socket, store, { channelMessage, joinChannelAck, userTypingEvent }) => {
      const announcer = new TypingAnnouncer((isTyping) => {
        if (socket.connected) socket.emit(CHAT_EVENTS.typing, { ...ref, isTyping });
      });
      // The server stops typing after 5 s without a refresh; this only guards against a lost `false`.
      const expiry = new Map<string, ReturnType<typeof setTimeout>>();
      const stopTyping = (id: string) => {
        clearTimeout(expiry.get(id));
        expiry.delete(id);
        setTyping((old) => {
          if (!old.has(id)) return old;
          const next = new Map(old);
          next.delete(id);
          return next;
        });
      };

      socket.on('connect', async () => {
        try {
          const ack = joinChannelAck.parse(
            await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(CHAT_EVENTS.joinChannel, ref),
          );
          if (!ack.ok) {
            setJoinError(ack.message);
            return;
          }
          setJoinError(null);
          store.onConnected();
          // The pins may have changed while the connection was down (the markers come with the
          // change backfill; the header's list and count refetch).
          void refreshPins(queryClient, workspaceName, channelId);
        } catch {
          // No answer: the connection is dropping; the next `connect` joins again.
        }
      });
      socket.on('disconnect', () => {
        for (const id of expiry.keys()) stopTyping(id);
      });
      // This channel renamed, archived, its members changed, or access to it lost: the header and the
      // page follow. (The sidebar listens too, for every channel; on a phone it is not there.)
      for (const event of Object.values(CHANNEL_EVENTS)) {
        socket.on(event, () => void refreshChannels(queryClient, workspaceName));
      }
      socket.on(CHAT_EVENTS.newMessage, (raw: unknown) => {
        const parsed = channelMessage.safeParse(raw);
        if (!parsed.success || parsed.data.channel !== channelId) return;
        stopTyping(parsed.data.sender._id);
        store.receive(parsed.data);
      });
      socket.on(CHAT_EVENTS.messageUpdated, (raw: unknown) => {
        const parsed = channelMessage.safeParse(raw);
        if (parsed.success && parsed.data.channel === channelId) store.receiveUpdate(parsed.data);
      });
      socket.on(PIN_EVENTS.channelPinsChanged, (raw: unknown) => {
        if ((raw as { channelId?: unknown } | null)?.channelId === channelId) {
          void refreshPins(queryClient, workspaceName, channelId);
        }
      });
      // Saved in another tab of mine: the menus' "Save for later" / "Remove from saved" follow.
      socket.on(SAVED_EVENTS.savedChanged, () => void refreshSaved(queryClient));
      socket.on(CHAT_EVENTS.userTyping, (raw: unknown) => {
        const parsed = userTypingEvent.safeParse(raw);
        if (!parsed.success) return;
        const { userId: who, email, isTyping, channelId: where } = parsed.data;
        if (where !== channelId || who === userId) return;
        if (!isTyping) {
          stopTyping(who);
          return;
        }
        clearTimeout(expiry.get(who));
        expiry.set(
          who,
          setTimeout(() => stopTyping(who), TYPING_EXPIRE_MS + 2000),
        );
        setTyping((old) => new Map(old).set(who, { userId: who, email }));
      });

      return {
        extra: announcer,
        close: () => {
          announcer.stop();
          if (socket.connected) socket.emit(CHAT_EVENTS.leaveChannel, ref);
          for (const timer of expiry.values()) clearTimeout(timer);
          setTyping(new Map());
        },
      };
    },
  }));

  const typingUsers = useMemo(() => [...typing.values()], [typing]);
  const apply = (m: ChannelMessage) => chat.live?.store.receiveUpdate(m);
  const path = (id: string) => `${channelMessagesPath(ref)}/${encodeURIComponent(id)}`;

  return {
    ...chat,
    joinError,
    typingUsers,
    send: (content, attachments) => {
      chat.live?.extra.stop();
      chat.send(content, attachments);
    },
    onInput: (value) => chat.live?.extra.input(value),
    ...messageActions(path, parseMessage, apply),
    pin: async (messageId, on) => {
      const url = `${path(messageId)}/pin`;
      const message = await parseMessage(on ? await api.put<unknown>(url) : await api.delete<unknown>(url));
      apply(message);
      void refreshPins(queryClient, workspaceName, channelId);
      return message;
    },
    reply: async (parentId, content) => {
      const message = await parseMessage(
        await api.post<unknown>(channelMessagesPath(ref), {
          clientId: crypto.randomUUID(),
          content,
          parentId,
        }),
      );
      apply(message);
      return message;
    },
  };
}
