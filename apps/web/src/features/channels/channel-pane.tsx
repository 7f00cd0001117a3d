import type { PublicUser } from '@cohort/shared/accounts';
import type { ChannelMessage } from '@cohort/shared/chat';
import type { Channel } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { Lock, Sparkles, Video } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ChatBubble } from '../../components/ui/chat-bubble.tsx';
import { ChatComposer } from '../../components/ui/chat-composer.tsx';
import { ChatLog, type ChatLogItem, ConnectionStatus } from '../../components/ui/chat-log.tsx';
import type { OutboxEntry } from '../../lib/conversation-store.ts';
import { connectionMessage } from '../../lib/socket.ts';
import { useMe } from '../accounts/use-me.ts';
import { membersQuery } from '../workspaces/workspaces.queries.ts';
import { displayName } from './display-name.ts';
import { markRead } from './read-marks.ts';
import { SUMMARY_PANEL_ID, SummaryPanel } from './summary-panel.tsx';
import { typingText } from './typing.ts';
import { useChannelChat } from './use-channel-chat.ts';

interface ChannelPaneProps {
  workspaceName: string;
  channel: Channel;
}

/** The spec's meeting page; a full page load, as the spec's button does. */
const MEETING_PAGE = '/videocall';
/** Consecutive messages of one sender within this window share one name label. */
const RUN_WINDOW_MS = 5 * 60_000;

/**
 * The channel view (SPEC §2 "Channel chat"): header with Video Meeting and the summary toggle, the
 * live message list, the typing indicator and the composer. The workspace page keys it by channel,
 * so switching channels tears the connection down and opens a fresh one (SPEC §4).
 */
export function ChannelPane({ workspaceName, channel }: ChannelPaneProps) {
  const me = useMe();
  const [showSummary, setShowSummary] = useState(false);

  return (
    <section
      aria-labelledby="channel-pane-heading"
      className="flex h-[40rem] max-h-[calc(100dvh-9rem)] min-h-[30rem] flex-col"
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-6 py-4">
        <div className="min-w-0">
          <h2
            id="channel-pane-heading"
            className="flex items-center gap-2 text-xl font-semibold text-slate-900"
          >
            <span className="break-words">{channel.name} Chat</span>
            {channel.private && (
              <>
                <Lock aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                <span className="sr-only">(private)</span>
              </>
            )}
          </h2>
          <p className="mt-1 text-sm break-words text-slate-600">{channel.description}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => window.location.assign(MEETING_PAGE)}>
            <Video aria-hidden="true" className="size-4" />
            Video Meeting
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={showSummary}
            aria-controls={showSummary ? SUMMARY_PANEL_ID : undefined}
            onClick={() => setShowSummary((shown) => !shown)}
          >
            <Sparkles aria-hidden="true" className="size-4" />
            {showSummary ? 'Hide Summary' : 'Show Summary'}
          </Button>
        </div>
      </header>
      {showSummary && (
        <SummaryPanel
          workspaceName={workspaceName}
          channelId={channel._id}
          onClose={() => setShowSummary(false)}
        />
      )}
      {me.data && <ChannelConversation workspaceName={workspaceName} channel={channel} me={me.data} />}
    </section>
  );
}

type Item = ChatLogItem &
  ({ kind: 'stored'; message: ChannelMessage } | { kind: 'pending'; entry: OutboxEntry });

function ChannelConversation({
  workspaceName,
  channel,
  me,
}: {
  workspaceName: string;
  channel: Channel;
  me: PublicUser;
}) {
  const chat = useChannelChat(workspaceName, channel._id, me._id);
  const { state } = chat;

  const items = useMemo<Item[]>(
    () => [
      ...state.messages.map(
        (message): Item => ({
          kind: 'stored',
          key: message.clientId || message._id,
          date: new Date(message.timestamp),
          own: message.sender._id === me._id,
          message,
        }),
      ),
      ...state.outbox.map(
        (entry): Item => ({
          kind: 'pending',
          key: entry.clientId,
          date: new Date(entry.createdAt),
          own: true,
          entry,
        }),
      ),
    ],
    [state.messages, state.outbox, me._id],
  );

  // Reading the channel moves its read mark, which clears its unread badge in the sidebar.
  const newestSeq = state.status === 'ready' ? (state.messages.at(-1)?.seq ?? 0) : undefined;
  useEffect(() => {
    if (newestSeq !== undefined) markRead(me._id, channel._id, newestSeq);
  }, [newestSeq, me._id, channel._id]);

  // `userTyping` carries an id and an e-mail only: the name comes from the workspace's member list
  // (cached, the create-channel form reads it too) or from the typist's messages, else the e-mail.
  const members = useQuery(membersQuery(workspaceName));
  const typingNames = chat.typingUsers.map((user) => {
    const member = members.data?.find((m) => m._id === user.userId);
    if (member) {
      return displayName({ name: `${member.firstName} ${member.lastName}`, email: member.email });
    }
    const known = state.messages.findLast((m) => m.sender._id === user.userId)?.sender;
    return displayName(known ?? { email: user.email });
  });

  return (
    <>
      <ConnectionStatus message={connectionMessage(chat.connection)} />
      {chat.joinError && (
        <p role="alert" className="border-b border-red-200 bg-red-50 px-6 py-2 text-sm text-red-800">
          You cannot chat in this channel: {chat.joinError}
        </p>
      )}
      <ChatLog
        label={`Messages in ${channel.name}`}
        items={items}
        status={state.status}
        emptyText={`No messages yet. Start the conversation in ${channel.name}.`}
        onReload={chat.reload}
        hasOlder={state.hasOlder}
        loadingOlder={state.loadingOlder}
        onLoadOlder={chat.loadOlder}
        renderItem={(item, previous) => {
          const spaced = startsRun(previous, item);
          if (item.kind === 'stored') {
            return (
              <ChatBubble
                key={item.key}
                own={item.own}
                content={item.message.content}
                date={item.date}
                name={displayName(item.message.sender)}
                showName={spaced}
                spaced={spaced}
              />
            );
          }
          const { entry } = item;
          return (
            <ChatBubble
              key={item.key}
              own
              content={entry.content}
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
      <p className="h-6 px-6 pt-1 text-xs text-slate-600 italic">{typingText(typingNames)}</p>
      <ChatComposer
        label={`Message ${channel.name}`}
        onSend={chat.send}
        onInput={chat.onInput}
        disabled={!!chat.joinError}
      />
    </>
  );
}

/** A new run starts with another sender or after a pause: it gets its name label and some space. */
function startsRun(previous: Item | undefined, item: Item): boolean {
  if (!previous) return true;
  if (previous.own !== item.own) return true;
  if (!item.own && previous.kind === 'stored' && item.kind === 'stored') {
    if (previous.message.sender._id !== item.message.sender._id) return true;
  }
  return item.date.getTime() - previous.date.getTime() > RUN_WINDOW_MS;
}
