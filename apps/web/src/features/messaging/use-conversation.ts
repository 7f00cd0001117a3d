import type { StoredFile } from '@cohort/shared/files';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import { api } from '../../lib/api.ts';
import {
  type ConversationOptions,
  type ConversationSource,
  type ConversationState,
  ConversationStore,
  type StoredMessage,
} from '../../lib/conversation-store.ts';
import { type LiveClient, openLive } from '../../lib/live.ts';
import { type ConnectionState, useConnectionState } from '../../lib/socket-state.ts';

/**
 * What a channel or a direct conversation supplies: the rest is the same for both. `live` is the
 * Socket.IO client and the schemas that check what the server sends, loaded after the first render.
 */
export interface ConversationSetup<M extends StoredMessage, X> {
  namespace: string;
  source: (socket: Socket, live: LiveClient) => ConversationSource<M>;
  options: ConversationOptions;
  /**
   * Subscribes the socket's events to the store (and joins, if the conversation has a room). Returns
   * what the caller keeps beside the store and what to undo when the conversation closes, before
   * the socket disconnects.
   */
  wire: (socket: Socket, store: ConversationStore<M>, live: LiveClient) => { extra: X; close?: () => void };
}

export interface Conversation<M extends StoredMessage, X> {
  state: ConversationState<M>;
  connection: ConnectionState;
  /** The open conversation's connection, store and extra, or null between two conversations. */
  live: { socket: Socket; store: ConversationStore<M>; extra: X } | null;
  send: (content: string, attachments?: StoredFile[]) => void;
  retry: (clientId: string) => void;
  discard: (clientId: string) => void;
  loadOlder: () => void;
  reload: () => void;
}

const EMPTY: ConversationState<never> = {
  messages: [],
  outbox: [],
  status: 'loading',
  hasOlder: false,
  loadingOlder: false,
};

/**
 * One live conversation: a fresh connection to its namespace while it is shown, its store loaded,
 * backfilled after every (re)connection (by `wire`) and disposed with the connection when `key`
 * changes or the view goes away. The view renders (as loading) before the live client has arrived;
 * the store is created, and its first page read, as soon as it has.
 */
export function useConversation<M extends StoredMessage, X>(
  /** Names the conversation: everything `setup` depends on. */
  key: string,
  setup: () => ConversationSetup<M, X>,
): Conversation<M, X> {
  const [live, setLive] = useState<{ socket: Socket; store: ConversationStore<M>; extra: X } | null>(null);
  // The open conversation's store as soon as it exists (before React has re-rendered with it), and
  // what is sent before it does (the composer works while the live client is still on its way):
  // handed to the store, in order, when it is created.
  const current = useRef<ConversationStore<M> | null>(null);
  const early = useRef<((store: ConversationStore<M>) => void)[]>([]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything `setup` reads.
  useEffect(() => {
    const { namespace, source, options, wire } = setup();
    const queued: ((store: ConversationStore<M>) => void)[] = [];
    early.current = queued;
    let store: ConversationStore<M> | undefined;
    const close = openLive(namespace, (socket, client) => {
      const opened = new ConversationStore(source(socket, client), options);
      store = opened;
      const wired = wire(socket, opened, client);
      void opened.load();
      current.current = opened;
      for (const act of queued.splice(0)) act(opened);
      setLive({ socket, store: opened, extra: wired.extra });
      return wired.close;
    });
    return () => {
      current.current = null;
      close();
      store?.dispose();
      setLive(null);
    };
  }, [key]);

  const store = live?.store;
  const subscribe = useCallback((notify: () => void) => store?.subscribe(notify) ?? (() => {}), [store]);
  const state = useSyncExternalStore(subscribe, () => store?.getState() ?? (EMPTY as ConversationState<M>));
  const connection = useConnectionState(live?.socket ?? null);

  return {
    state,
    connection,
    live,
    send: (content, attachments) => {
      if (current.current) current.current.send(content, attachments);
      else early.current.push((opened) => opened.send(content, attachments));
    },
    retry: (clientId) => live?.store.retry(clientId),
    discard: (clientId) => live?.store.discard(clientId),
    loadOlder: () => void live?.store.loadOlder(),
    reload: () => void live?.store.load(),
  };
}

/**
 * Edit, delete and react go over HTTP (idempotent: a retry is harmless); the answer is the message's
 * new state, applied at once (the conversation hears it as `messageUpdated` too).
 */
export function messageActions<M>(
  messagePath: (id: string) => string,
  parse: (raw: unknown) => M | Promise<M>,
  apply: (m: M) => void,
) {
  const done = async (raw: unknown) => {
    const message = await parse(raw);
    apply(message);
    return message;
  };
  return {
    edit: async (id: string, content: string) => done(await api.patch<unknown>(messagePath(id), { content })),
    remove: async (id: string) => done(await api.delete<unknown>(messagePath(id))),
    react: async (id: string, emoji: string, on: boolean) => {
      const url = `${messagePath(id)}/reactions/${encodeURIComponent(emoji)}`;
      return done(on ? await api.put<unknown>(url) : await api.delete<unknown>(url));
    },
  };
}
