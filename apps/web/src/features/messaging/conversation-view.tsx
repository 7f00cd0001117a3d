import { Fragment, type ReactNode, useMemo } from 'react';
import { ChatBubble } from '../../components/ui/chat-bubble.tsx';
import { ChatLog, type ChatLogItem, ConnectionStatus } from '../../components/ui/chat-log.tsx';
import type { ConversationState, OutboxEntry, StoredMessage } from '../../lib/conversation-store.ts';
import { type ConnectionState, connectionMessage } from '../../lib/socket-state.ts';
import { firstUnreadKey, NewMessagesDivider, useMarkRead, useOpenedMark } from '../reads/reads.public.ts';

export type ConversationItem<M> = ChatLogItem &
  ({ kind: 'stored'; message: M } | { kind: 'pending'; entry: OutboxEntry });

/** How a stored message is laid out in the flow: with its sender's name, with space above. */
export interface MessageLayout {
  showName: boolean | undefined;
  spaced: boolean | undefined;
}

interface ConversationViewProps<M extends StoredMessage> {
  chat: {
    state: ConversationState<M>;
    connection: ConnectionState;
    retry: (clientId: string) => void;
    discard: (clientId: string) => void;
    reload: () => void;
    loadOlder: () => void;
  };
  /** The stored messages of the flow, by seq (memoized: channels leave thread replies out). */
  messages: M[];
  /** Memoized, like `messages`. */
  isOwn: (message: M) => boolean;
  /** Memoized, like `messages`. */
  dateOf: (message: M) => Date;
  label: string;
  emptyText: string;
  /** The element id the log opens at (a search hit) instead of the newest message. */
  anchorId?: string | undefined;
  /** The reader's read mark: where the "New messages" line goes, and how reading moves it. */
  reads: {
    settled: boolean;
    /** The mark when the conversation opened; undefined while unknown. */
    lastReadSeq: number | undefined;
    /** The mark the server holds now. */
    markedSeq: number | undefined;
    mark: (seq: number) => Promise<unknown>;
  };
  /** Whether an item starts a new run of one sender (channels group them; without it, no runs). */
  startsRun?: (previous: ConversationItem<M> | undefined, item: ConversationItem<M>) => boolean;
  renderMessage: (message: M, layout: MessageLayout) => ReactNode;
  /** Shown under the connection status (e.g. why the user cannot post here). */
  alert?: ReactNode;
}

/**
 * One conversation's flow, used by channels and direct messages alike: the connection status, the
 * log of stored and pending messages with the "New messages" line, and read marks that move as the
 * reader sees new messages. What a stored message looks like is the caller's (`renderMessage`).
 */
export function ConversationView<M extends StoredMessage>({
  chat,
  messages,
  isOwn,
  dateOf,
  label,
  emptyText,
  anchorId,
  reads,
  startsRun,
  renderMessage,
  alert,
}: ConversationViewProps<M>) {
  const { state } = chat;
  const items = useMemo<ConversationItem<M>[]>(
    () => [
      ...messages.map(
        (message): ConversationItem<M> => ({
          kind: 'stored',
          key: message.clientId || message._id,
          date: dateOf(message),
          own: isOwn(message),
          message,
        }),
      ),
      ...state.outbox.map(
        (entry): ConversationItem<M> => ({
          kind: 'pending',
          key: entry.clientId,
          date: new Date(entry.createdAt),
          own: true,
          sending: true,
          entry,
        }),
      ),
    ],
    [messages, state.outbox, isOwn, dateOf],
  );

  // Where the reader had got to when the conversation opened: the "New messages" line goes above the
  // first message after it and stays until they leave. Marking waits for it, or the line would never
  // show; reading then moves the mark on the server, which clears the unread count in every tab.
  const openedMark = useOpenedMark({
    settled: reads.settled,
    lastReadSeq: reads.lastReadSeq,
    ready: state.status === 'ready',
    newestSeq: state.messages.at(-1)?.seq,
  });
  const dividerKey = useMemo(
    () =>
      firstUnreadKey(items, openedMark, (item) =>
        item.kind === 'stored' && !item.own ? item.message.seq : null,
      ),
    [items, openedMark],
  );
  useMarkRead({
    enabled: openedMark !== undefined && state.status === 'ready',
    newestSeq: state.messages.at(-1)?.seq,
    markedSeq: reads.markedSeq,
    mark: reads.mark,
  });

  return (
    <>
      <ConnectionStatus message={connectionMessage(chat.connection)} />
      {alert}
      <ChatLog
        label={label}
        items={items}
        status={state.status}
        emptyText={emptyText}
        onReload={chat.reload}
        hasOlder={state.hasOlder}
        loadingOlder={state.loadingOlder}
        onLoadOlder={chat.loadOlder}
        anchorId={anchorId}
        renderItem={(item, previous) => {
          const spaced = startsRun?.(previous, item);
          if (item.kind === 'stored') {
            if (item.key !== dividerKey) return renderMessage(item.message, { showName: spaced, spaced });
            return (
              <Fragment key={item.key}>
                <NewMessagesDivider />
                {renderMessage(item.message, { showName: true, spaced: true })}
              </Fragment>
            );
          }
          const { entry } = item;
          return (
            <ChatBubble
              key={item.key}
              own
              content={entry.content}
              attachments={entry.attachments}
              date={item.date}
              spaced={spaced}
              pending={{
                status: entry.status,
                error: entry.error,
                onRetry: () => chat.retry(entry.clientId),
                onDiscard: () => chat.discard(entry.clientId),
              }}
            />
          );
        }}
      />
    </>
  );
}
