import type { PublicUser } from '@cohort/shared/accounts';
import type { ChannelMessage } from '@cohort/shared/chat';
import { displayName } from '@cohort/shared/names';
import { roleCan } from '@cohort/shared/permissions';
import type { Channel, WorkspaceRole } from '@cohort/shared/workspaces';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, Bell, BellOff, DoorOpen, Info, Lock, Pin, Sparkles, Star, Video } from 'lucide-react';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ChatBubble } from '../../components/ui/chat-bubble.tsx';
import { ChatComposer } from '../../components/ui/chat-composer.tsx';
import { timeLabel } from '../../lib/chat-time.ts';
import { useContentShown } from '../../lib/first-content.ts';
import { toast } from '../../lib/toast.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { MeetingBanner, meetingUrl } from '../calls/calls.public.ts';
import {
  type ConversationItem,
  ConversationView,
  DeletedBody,
  EditedMarker,
  EditForm,
  lastEditableMessage,
  MessageActions,
  type MessageLayout,
  messageLink,
  PinnedMarker,
  ReactionsRow,
  reactFailed,
  ThreadSummary,
  useMessageEditing,
} from '../messaging/messaging.public.ts';
import { useClearChannelMentions } from '../notifications/notifications.public.ts';
import { PersonCards } from '../people/people.public.ts';
import {
  applyChannelUnread,
  channelUnreadQuery,
  markChannelRead,
  setChannelMuted,
} from '../reads/reads.public.ts';
import { useSavedMessages } from '../saved/saved.public.ts';
import { CreateTaskFromMessageDialog, TaskLinkPreviews } from '../tasks/tasks.public.ts';
import { membersQuery } from '../workspaces/workspaces.public.ts';
import { ChannelDetailsDialog } from './channel-details-dialog.tsx';
import { channelAbilities, useChannelAction } from './channel-manage.queries.ts';
import { channelPinsQuery } from './pins.queries.ts';
import { SUMMARY_PANEL_ID, SummaryPanel } from './summary-panel.tsx';
import { ThreadPanel } from './thread-panel.tsx';
import { typingText } from './typing.ts';
import { useChannelChat } from './use-channel-chat.ts';

interface ChannelPaneProps {
  workspaceName: string;
  channel: Channel;
  /** The reader's role: admins may delete anyone's message. */
  role?: WorkspaceRole;
}

// The Pins panel loads when first opened: it stays out of the channel page's first download.
const PinsDialog = lazy(() => import('./pins-dialog.tsx'));

const pinFailed = (err: unknown) =>
  toast.error(`The pin could not be changed: ${err instanceof Error ? err.message : 'try again'}`);

/** Consecutive messages of one sender within this window share one name label. */
const RUN_WINDOW_MS = 5 * 60_000;

/**
 * The channel view (SPEC §2 "Channel chat"): header with Video Meeting and the summary toggle, the
 * live message list, the typing indicator and the composer. The workspace page keys it by channel,
 * so switching channels tears the connection down and opens a fresh one (SPEC §4).
 */
// Memoized: the workspace page around it re-renders as its own reads land (issue 19).
export const ChannelPane = memo(function ChannelPane({ workspaceName, channel, role }: ChannelPaneProps) {
  const me = useMe();
  const navigate = useNavigate();
  const [showSummary, setShowSummary] = useState(false);
  const [showDetails, setShowDetails] = useState(false);
  const [showPins, setShowPins] = useState(false);
  // Opening a message of this channel from within it (a pin, a link) starts the conversation afresh
  // around it, as opening the channel at it does: the log then scrolls to it from scratch.
  const [params] = useSearchParams();
  const openedAt = params.get('message') ?? '';

  return (
    // Every sender and @mention in the channel (and its thread) opens that person's card.
    <PersonCards>
      <section
        aria-labelledby="channel-pane-heading"
        // A phone: the whole height the workspace page leaves it (the screen below its header).
        className="flex h-full flex-col md:h-[40rem] md:max-h-[calc(100dvh-9rem)] md:min-h-[30rem]"
      >
        {/* The actions wrap below the name when both do not fit (a phone): beside eight icons the name
            was squeezed to its first letter. */}
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-3 py-2 sm:items-start sm:gap-3 sm:px-6 sm:py-4 dark:border-slate-800">
          <div className="min-w-[8rem] flex-1">
            <h2
              id="channel-pane-heading"
              className="flex items-center gap-2 text-base font-semibold text-slate-900 sm:text-xl dark:text-slate-100"
            >
              <span className="truncate sm:break-words sm:whitespace-normal">{channel.name} Chat</span>
              {channel.private && (
                <>
                  <Lock aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                  <span className="sr-only">(private)</span>
                </>
              )}
            </h2>
            {channel.topic && (
              <p
                data-testid="channel-topic"
                className="mt-1 truncate text-sm font-medium text-slate-800 dark:text-slate-200"
              >
                <span className="sr-only">Topic: </span>
                {channel.topic}
              </p>
            )}
            <p className="mt-1 hidden text-sm break-words text-slate-600 sm:block dark:text-slate-400">
              {channel.description}
            </p>
          </div>
          {/* On a phone the actions are icons (their names stay for screen readers). */}
          <div className="ml-auto flex shrink-0 flex-wrap items-center gap-1 sm:gap-2">
            <ChannelMembershipButtons workspaceName={workspaceName} channel={channel} />
            <Button variant="secondary" size="sm" onClick={() => setShowDetails(true)}>
              <Info aria-hidden="true" className="size-4" />
              <span className="max-sm:sr-only">Details</span>
            </Button>
            <PinsButton
              workspaceName={workspaceName}
              channelId={channel._id}
              onOpen={() => setShowPins(true)}
            />
            <MuteButton workspaceName={workspaceName} channelId={channel._id} />
            <Button
              variant="secondary"
              size="sm"
              onClick={() => navigate(meetingUrl(workspaceName, channel._id))}
            >
              <Video aria-hidden="true" className="size-4" />
              <span className="max-sm:sr-only">Video Meeting</span>
            </Button>
            <Button
              variant="secondary"
              size="sm"
              aria-expanded={showSummary}
              aria-controls={showSummary ? SUMMARY_PANEL_ID : undefined}
              onClick={() => setShowSummary((shown) => !shown)}
            >
              <Sparkles aria-hidden="true" className="size-4" />
              <span className="max-sm:sr-only">{showSummary ? 'Hide Summary' : 'Show Summary'}</span>
            </Button>
          </div>
        </header>
        {channel.archived && (
          <p
            role="status"
            className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-6 py-2 text-sm text-amber-900"
          >
            <Archive aria-hidden="true" className="size-4 shrink-0" />
            This channel is archived: it is read-only.
          </p>
        )}
        {showDetails && (
          <ChannelDetailsDialog
            workspaceName={workspaceName}
            channel={channel}
            workspaceRole={role ?? 'viewer'}
            userId={me.data?._id}
            onClose={() => setShowDetails(false)}
          />
        )}
        {showPins && (
          <Suspense fallback={null}>
            <PinsDialog
              workspaceName={workspaceName}
              channel={channel}
              mayPin={role !== undefined && roleCan(role, 'pinMessages') && !channel.archived}
              onClose={() => setShowPins(false)}
            />
          </Suspense>
        )}
        <MeetingBanner workspaceName={workspaceName} channelId={channel._id} />
        {showSummary && (
          <SummaryPanel
            workspaceName={workspaceName}
            channelId={channel._id}
            onClose={() => setShowSummary(false)}
          />
        )}
        {me.data && (
          <ChannelConversation
            key={openedAt}
            workspaceName={workspaceName}
            channel={channel}
            me={me.data}
            role={role}
          />
        )}
      </section>
    </PersonCards>
  );
});

type Item = ConversationItem<ChannelMessage>;

const dateOf = (message: ChannelMessage) => new Date(message.timestamp);

function ChannelConversation({
  workspaceName,
  channel,
  me,
  role,
}: {
  workspaceName: string;
  channel: Channel;
  me: PublicUser;
  role?: WorkspaceRole | undefined;
}) {
  // A search hit opens the channel at `?message=<id>&seq=<seq>`: history is loaded around it.
  const [params] = useSearchParams();
  const targetId = params.get('message') ?? undefined;
  const targetSeq = Number(params.get('seq'));
  const anchorSeq = targetId && Number.isSafeInteger(targetSeq) && targetSeq > 0 ? targetSeq : undefined;
  const chat = useChannelChat(workspaceName, channel._id, me._id, anchorSeq);
  const { state } = chat;
  const { editing, start: startEditing, done: doneEditing } = useMessageEditing();
  const [taskFrom, setTaskFrom] = useState<{ _id: string; content: string } | null>(null);
  // A notification's link may also name the thread to open: `&thread=<parent id>`.
  const [threadId, setThreadId] = useState<string | null>(() => params.get('thread'));
  const target = targetId ? state.messages.find((m) => m._id === targetId) : undefined;
  // A thread reply is shown in its thread: the channel scrolls to the parent and opens the thread.
  const anchorMessageId = target ? (target.parentId ?? target._id) : undefined;
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    if (!anchorMessageId) return;
    setFlash(anchorMessageId);
    if (anchorMessageId !== targetId) setThreadId(anchorMessageId);
    const timer = setTimeout(() => setFlash(null), 4000);
    return () => clearTimeout(timer);
  }, [anchorMessageId, targetId]);
  const thread = threadId ? state.messages.find((m) => m._id === threadId) : undefined;

  // Thread replies live in the thread panel, not in the channel's flow.
  const flow = useMemo(() => state.messages.filter((message) => message.parentId === null), [state.messages]);
  const isOwn = useCallback((message: ChannelMessage) => message.sender._id === me._id, [me._id]);
  const saved = useSavedMessages('channel');
  // Pinning is for the roles that may (editors and admins), in a channel that is not archived.
  const mayPin = role !== undefined && roleCan(role, 'pinMessages') && !channel.archived;

  // The log scrolls to the target itself (ChatLog's anchorId), once it is rendered.
  const queryClient = useQueryClient();
  // The reads beside the history (read marks, members, mentions, saved ids) start once its first
  // page is on screen: on a phone's six connections they slowed the history itself (issue 19).
  const extras = useContentShown();
  const reads = useQuery({ ...channelUnreadQuery(workspaceName), enabled: extras });
  const readState = reads.data?.find((c) => c.channelId === channel._id);

  // `userTyping` carries an id and an e-mail only: the name comes from the workspace's member list
  // (cached, the create-channel form reads it too) or from the typist's messages, else the e-mail.
  const members = useQuery({ ...membersQuery(workspaceName), enabled: extras });
  // @mention autocomplete: the workspace's other members with an account.
  const mentionCandidates = useMemo(
    () =>
      (members.data ?? []).flatMap((m) =>
        m._id && m._id !== me._id && m.status !== 'invited'
          ? [{ id: m._id, name: displayName(m), email: m.email }]
          : [],
      ),
    [members.data, me._id],
  );
  useClearChannelMentions(workspaceName, channel._id, state.status === 'ready' && extras);
  const typingNames = chat.typingUsers.map((user) => {
    const member = members.data?.find((m) => m._id === user.userId);
    if (member) {
      return displayName(member);
    }
    const known = state.messages.findLast((m) => m.sender._id === user.userId)?.sender;
    return displayName(known ?? { email: user.email });
  });

  // The rows are memoized (ChannelMessageRow): a commit elsewhere on the page (a sidebar counter, the
  // member list, the read mark) re-renders the log but not every message in it (issue 19). Their
  // callbacks are one stable object that reaches the conversation's newest methods through a ref.
  const latestChat = useRef(chat);
  latestChat.current = chat;
  const latestSaved = useRef(saved);
  latestSaved.current = saved;
  const rowActions = useMemo<RowActions>(
    () => ({
      react: (id, emoji, on) => {
        latestChat.current.react(id, emoji, on).catch(reactFailed);
      },
      edit: (id, content) => latestChat.current.edit(id, content),
      remove: (id) => latestChat.current.remove(id),
      startEditing: (id) => startEditing(id),
      doneEditing,
      openThread: setThreadId,
      createTask: (message) => setTaskFrom({ _id: message._id, content: message.content }),
      pin: (id, on) => {
        latestChat.current.pin(id, on).catch(pinFailed);
      },
      toggleSave: (id) => latestSaved.current.toggle(id),
    }),
    [startEditing, doneEditing],
  );
  const canModerate = role !== undefined && roleCan(role, 'manageChannels');

  /** A stored message's bubble with its actions, reactions, thread summary and markers. */
  const renderMessage = (message: ChannelMessage, layout: MessageLayout & { inThread?: boolean }) => {
    if (message.kind === 'system') return <SystemMessage key={message._id} message={message} />;
    const inThread = layout.inThread === true;
    return (
      <ChannelMessageRow
        key={message.clientId || message._id}
        message={message}
        showName={layout.showName === true}
        spaced={layout.spaced === true}
        inThread={inThread}
        highlighted={flash === message._id && !inThread}
        isEditing={editing === message._id}
        myId={me._id}
        canModerate={canModerate}
        link={messageLink(window.location.origin, workspaceName, channel._id, message)}
        saved={saved.isSaved(message._id)}
        mayPin={mayPin}
        actions={rowActions}
      />
    );
  };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col md:flex-row">
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <ConversationView
          chat={chat}
          messages={flow}
          isOwn={isOwn}
          dateOf={dateOf}
          label={`Messages in ${channel.name}`}
          emptyText={`No messages yet. Start the conversation in ${channel.name}.`}
          anchorId={anchorMessageId ? `message-${anchorMessageId}` : undefined}
          reads={{
            settled: reads.isSuccess || reads.isError,
            lastReadSeq: readState?.lastReadSeq,
            markedSeq: readState?.lastReadSeq,
            mark: async (seq) =>
              applyChannelUnread(queryClient, await markChannelRead(workspaceName, channel._id, seq)),
          }}
          startsRun={startsRun}
          renderMessage={renderMessage}
          alert={
            chat.joinError && (
              <p role="alert" className="border-b border-red-200 bg-red-50 px-6 py-2 text-sm text-red-800">
                You cannot chat in this channel: {chat.joinError}
              </p>
            )
          }
        />
        <p className="h-6 shrink-0 truncate px-4 pt-1 text-xs text-slate-600 italic sm:px-6 dark:text-slate-400">
          {typingText(typingNames)}
        </p>
        <ChatComposer
          label={`Message ${channel.name}`}
          onSend={chat.send}
          uploadTarget={{ workspaceName, channelId: channel._id }}
          onInput={chat.onInput}
          disabled={!!chat.joinError || channel.archived}
          mentionCandidates={mentionCandidates}
          onEditLast={(composer) => {
            const last = lastEditableMessage(flow, isOwn);
            if (last) startEditing(last._id, composer);
            return !!last;
          }}
        />
      </div>
      {thread && (
        <ThreadPanel
          key={thread._id}
          workspaceName={workspaceName}
          channelId={channel._id}
          parent={thread}
          liveReplies={state.messages.filter((m) => m.parentId === thread._id)}
          renderMessage={(m) => renderMessage(m, { showName: true, spaced: true, inThread: true })}
          onReply={(content) => chat.reply(thread._id, content)}
          onClose={() => setThreadId(null)}
          mentionCandidates={mentionCandidates}
          onEditLast={(replies, composer) => {
            const last = lastEditableMessage(replies, isOwn);
            if (last) startEditing(last._id, composer);
            return !!last;
          }}
        />
      )}
      {taskFrom && (
        <Suspense fallback={null}>
          <CreateTaskFromMessageDialog
            workspaceName={workspaceName}
            channelId={channel._id}
            message={taskFrom}
            onClose={() => setTaskFrom(null)}
          />
        </Suspense>
      )}
    </div>
  );
}

/** The channel's pins: how many, and a button that opens the Pins panel. */
function PinsButton({
  workspaceName,
  channelId,
  onOpen,
}: {
  workspaceName: string;
  channelId: string;
  onOpen: () => void;
}) {
  // Not held back with the other side reads: a pin made while this read waited was missed by the
  // count (pins-saved journey, clean-clone CI).
  const pins = useQuery(channelPinsQuery(workspaceName, channelId));
  const count = pins.data?.length ?? 0;
  return (
    <Button variant="secondary" size="sm" aria-haspopup="dialog" onClick={onOpen}>
      <Pin aria-hidden="true" className="size-4" />
      <span className="max-sm:sr-only">Pins</span>
      <span
        data-testid="pin-count"
        className="rounded-full bg-slate-100 px-1.5 text-xs tabular-nums text-slate-700 dark:bg-slate-700 dark:text-slate-200"
      >
        {count}
      </span>
    </Button>
  );
}

/** Mute keeps the channel listed but quiet: no unread count, no @channel notifications. */
function MuteButton({ workspaceName, channelId }: { workspaceName: string; channelId: string }) {
  const queryClient = useQueryClient();
  const reads = useQuery({ ...channelUnreadQuery(workspaceName), enabled: useContentShown() });
  const state = reads.data?.find((c) => c.channelId === channelId);
  const [busy, setBusy] = useState(false);
  if (!state) return null;
  const toggle = async () => {
    setBusy(true);
    try {
      applyChannelUnread(queryClient, await setChannelMuted(workspaceName, channelId, !state.muted));
    } catch {
      toast.error(state.muted ? 'Could not unmute the channel' : 'Could not mute the channel');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" disabled={busy} onClick={toggle}>
      {state.muted ? (
        <Bell aria-hidden="true" className="size-4" />
      ) : (
        <BellOff aria-hidden="true" className="size-4" />
      )}
      <span className="max-sm:sr-only">{state.muted ? 'Unmute' : 'Mute'}</span>
    </Button>
  );
}

/** What a message row can do, stable across renders (the rows are memoized). */
interface RowActions {
  react: (id: string, emoji: string, on: boolean) => void;
  edit: (id: string, content: string) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
  startEditing: (id: string) => void;
  doneEditing: () => void;
  openThread: (id: string) => void;
  createTask: (message: ChannelMessage) => void;
  pin: (id: string, on: boolean) => void;
  toggleSave: (id: string) => void;
}

/** A stored message's bubble with its actions, reactions, thread summary and markers. */
const ChannelMessageRow = memo(function ChannelMessageRow({
  message,
  showName,
  spaced,
  inThread,
  highlighted,
  isEditing,
  myId,
  canModerate,
  link,
  saved,
  mayPin,
  actions,
}: {
  message: ChannelMessage;
  showName: boolean;
  spaced: boolean;
  inThread: boolean;
  highlighted: boolean;
  isEditing: boolean;
  myId: string;
  /** A workspace role that may delete anyone's message. */
  canModerate: boolean;
  link: string;
  /** In the reader's saved messages. */
  saved: boolean;
  /** The reader may pin and unpin here. */
  mayPin: boolean;
  actions: RowActions;
}) {
  const own = message.sender._id === myId;
  return (
    <ChatBubble
      id={inThread ? undefined : `message-${message._id}`}
      highlighted={highlighted}
      own={own}
      content={message.content}
      attachments={message.attachments}
      date={new Date(message.timestamp)}
      name={displayName(message.sender)}
      senderEmail={message.sender.email}
      showName={showName}
      spaced={spaced}
      body={
        message.deleted ? (
          <DeletedBody />
        ) : isEditing ? (
          <EditForm
            initial={message.content}
            onSave={(content) => actions.edit(message._id, content)}
            onDone={actions.doneEditing}
          />
        ) : undefined
      }
      meta={message.editedAt && !message.deleted ? <EditedMarker editedAt={message.editedAt} /> : undefined}
      actions={
        message.deleted || isEditing ? undefined : (
          <MessageActions
            own={own}
            canEdit={own}
            canDelete={own || canModerate}
            onReact={(emoji) => {
              const mine = message.reactions
                .find((r) => r.emoji === emoji)
                ?.users.some((u) => u._id === myId);
              actions.react(message._id, emoji, !mine);
            }}
            onEdit={() => actions.startEditing(message._id)}
            onDelete={() => actions.remove(message._id)}
            onReply={inThread || message.parentId ? undefined : () => actions.openThread(message._id)}
            onCreateTask={() => actions.createTask(message)}
            link={link}
            saved={saved}
            onToggleSave={() => actions.toggleSave(message._id)}
            pinned={!!message.pinned}
            onTogglePin={mayPin ? () => actions.pin(message._id, !message.pinned) : undefined}
          />
        )
      }
      below={
        <>
          {message.pinned && !message.deleted && <PinnedMarker by={message.pinned.by.name} />}
          {!message.deleted && <TaskLinkPreviews text={message.content} />}
          <ReactionsRow
            reactions={message.reactions}
            myId={myId}
            onToggle={(emoji, on) => actions.react(message._id, emoji, on)}
          />
          {!inThread && (
            <ThreadSummary
              count={message.replyCount}
              lastReplyAt={message.lastReplyAt}
              onOpen={() => actions.openThread(message._id)}
            />
          )}
        </>
      }
    />
  );
});

/** A new run starts with another sender or after a pause: it gets its name label and some space. */
function startsRun(previous: Item | undefined, item: Item): boolean {
  if (!previous) return true;
  if (previous.own !== item.own) return true;
  if (!item.own && previous.kind === 'stored' && item.kind === 'stored') {
    if (previous.message.sender._id !== item.message.sender._id) return true;
  }
  return item.date.getTime() - previous.date.getTime() > RUN_WINDOW_MS;
}

/** An announcement ("Ada renamed the channel to launch"): a quiet line, not a bubble. */
function SystemMessage({ message }: { message: ChannelMessage }) {
  const at = new Date(message.timestamp);
  // The log is a list: the announcement is one of its items, like a bubble.
  return (
    <li
      id={`message-${message._id}`}
      className="px-4 py-1 text-center text-xs text-slate-600 italic dark:text-slate-400"
    >
      {message.content}{' '}
      <time dateTime={message.timestamp} className="text-slate-500 not-italic">
        {timeLabel(at)}
      </time>
    </li>
  );
}

/** Star (the caller's own), and Join or Leave for an open channel. */
function ChannelMembershipButtons({ workspaceName, channel }: { workspaceName: string; channel: Channel }) {
  const me = useMe();
  const action = useChannelAction(workspaceName, channel._id);
  const can = channelAbilities('viewer', channel, me.data?._id);
  const run = (a: Parameters<typeof action.mutateAsync>[0], failure: string) =>
    action.mutateAsync(a).catch(() => toast.error(failure));
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        aria-pressed={channel.starred}
        disabled={action.isPending}
        onClick={() => run({ kind: 'star', starred: !channel.starred }, 'Could not change the star')}
      >
        <Star
          aria-hidden="true"
          className={channel.starred ? 'size-4 fill-amber-400 text-amber-500' : 'size-4'}
        />
        <span className="max-sm:sr-only">{channel.starred ? 'Starred' : 'Star'}</span>
      </Button>
      {can.join && (
        <Button
          size="sm"
          disabled={action.isPending}
          onClick={() => run({ kind: 'join' }, 'Could not join the channel')}
        >
          Join channel
        </Button>
      )}
      {can.leave && !channel.private && (
        <Button
          variant="ghost"
          size="sm"
          disabled={action.isPending}
          onClick={() => run({ kind: 'leave' }, 'Could not leave the channel')}
        >
          {/* An icon on a phone, like the header's other actions: the words took the channel's name's place. */}
          <DoorOpen aria-hidden="true" className="size-4 sm:hidden" />
          <span className="max-sm:sr-only">Leave channel</span>
        </Button>
      )}
    </>
  );
}
