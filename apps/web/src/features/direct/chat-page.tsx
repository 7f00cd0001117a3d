import type { PublicUser } from '@cohort/shared/accounts';
import { emailSchema } from '@cohort/shared/accounts';
import { CHAT_MESSAGES, type DirectMessage } from '@cohort/shared/chat';
import { displayName } from '@cohort/shared/names';
import { PEOPLE_MESSAGES } from '@cohort/shared/people';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MessageCircle, Phone, X } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ChatBubble } from '../../components/ui/chat-bubble.tsx';
import { ChatComposer } from '../../components/ui/chat-composer.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { callUrl } from '../calls/calls.public.ts';
import {
  ConversationView,
  DeletedBody,
  EditedMarker,
  EditForm,
  lastEditableMessage,
  MessageActions,
  ReactionsRow,
  reactFailed,
  useMessageEditing,
} from '../messaging/messaging.public.ts';
import { refreshNotificationFeed } from '../notifications/notifications.public.ts';
import { Avatar, PeopleSearch, PersonButton, PersonCards, personQuery } from '../people/people.public.ts';
import { PresenceDot, usePersonPresence } from '../presence/presence.public.ts';
import { applyDirectUnread, directUnreadQuery, markDirectRead } from '../reads/reads.public.ts';
import { useSavedMessages } from '../saved/saved.public.ts';
import { type ChatState, clearChatState, readChatState, saveChatState } from './chat-state.ts';
import { ConversationList } from './conversation-list.tsx';
import { useDirectChat } from './use-direct-chat.ts';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * /chat and /livechat (SPEC §2 "Direct chat"): a form step asking for the recipient's e-mail, then the
 * conversation. The pair is saved as `chatState` and restored on reload; a pair saved by another
 * account on this browser is not ours to open, so it leads to the form step.
 */
export default function ChatPage() {
  const me = useMe();
  const [pair, setPair] = useState<ChatState | null>(() => readChatState());
  useDocumentTitle('Direct chat');
  // A notification's link names the other person: `/chat?with=<email>` opens that conversation.
  const [searchParams, setSearchParams] = useSearchParams();
  const withEmail = emailSchema.safeParse(searchParams.get('with') ?? '');
  const wanted = withEmail.success ? withEmail.data : null;
  const myEmail = me.data?.email;
  useEffect(() => {
    if (!wanted || !myEmail || same(wanted, myEmail)) return;
    const next = { myEmail, recipientEmail: wanted };
    saveChatState(next);
    setPair(next);
  }, [wanted, myEmail]);

  // RequireAuth guarantees a user; this keeps the page safe to render on its own.
  if (!me.data) return null;
  const active = pair && same(pair.myEmail, me.data.email) ? pair : null;
  // A search hit adds the message to open at: `&message=<id>&seq=<seq>` (only for that conversation).
  const targetSeq = Number(searchParams.get('seq'));
  const targetId = searchParams.get('message');
  const target =
    active &&
    wanted &&
    same(wanted, active.recipientEmail) &&
    targetId &&
    Number.isSafeInteger(targetSeq) &&
    targetSeq > 0
      ? { id: targetId, seq: targetSeq }
      : undefined;

  return (
    // A phone: an open conversation takes the screen below the navbar, its composer at the bottom.
    <div
      className={cn(
        'mx-auto max-w-4xl px-4 py-8 sm:px-6',
        active && 'flex flex-col max-md:h-below-navbar max-md:px-2 max-md:py-2',
      )}
    >
      {active ? (
        <>
          <div className="mb-4 flex shrink-0 items-center justify-between gap-3 max-md:mb-2 max-md:px-2 md:flex-wrap">
            <h1 className="text-lg font-bold tracking-tight text-slate-900 md:text-2xl dark:text-slate-100">
              Direct chat
            </h1>
            <div className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-300">
              <p className="max-md:sr-only">
                Chatting as:{' '}
                <span className="font-semibold text-slate-900" title={me.data.email}>
                  {displayName(me.data)}
                </span>
              </p>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  // Only the saved pair goes (and the link's `with`, so a reload stays on the list);
                  // the session (and the navbar's sign-in) stays.
                  clearChatState();
                  setPair(null);
                  if (searchParams.has('with')) setSearchParams({}, { replace: true });
                }}
              >
                <X aria-hidden="true" className="size-4" />
                Close
              </Button>
            </div>
          </div>
          <DirectConversation
            key={active.recipientEmail.toLowerCase()}
            me={me.data}
            other={active.recipientEmail}
            target={target}
          />
        </>
      ) : (
        <StartChat
          me={me.data}
          onStart={(recipientEmail) => {
            const next = { myEmail: me.data?.email ?? '', recipientEmail };
            saveChatState(next);
            setPair(next);
          }}
        />
      )}
    </div>
  );
}

function StartChat({ me, onStart }: { me: PublicUser; onStart: (recipientEmail: string) => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);
  const queryClient = useQueryClient();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter a valid e-mail address');
      return;
    }
    if (same(parsed.data, me.email)) {
      setError('Enter the e-mail of someone else');
      return;
    }
    // Refused now, not after typing a message: someone I share no workspace with (unless we already
    // have a conversation, whose history stays readable).
    setChecking(true);
    try {
      const [person, listing] = await Promise.all([
        queryClient.fetchQuery({ ...personQuery(parsed.data), staleTime: 0 }),
        queryClient.fetchQuery(directUnreadQuery).catch(() => []),
      ]);
      if (!person && !listing.some((c) => same(c.email, parsed.data))) {
        setError(PEOPLE_MESSAGES.notMessageable);
        return;
      }
    } catch {
      setError('Could not check this address. Try again.');
      return;
    } finally {
      setChecking(false);
    }
    onStart(parsed.data);
  };

  return (
    <section
      aria-labelledby="start-chat-heading"
      className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <MessageCircle aria-hidden="true" className="size-10 text-indigo-600" />
      <h1 id="start-chat-heading" className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
        Direct chat
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        Chat one-to-one with anyone who shares a workspace with you. You are signed in as{' '}
        <span className="font-medium text-slate-800">{me.email}</span>.
      </p>
      <div className="mt-6">
        <PeopleSearch label="Find someone" onPick={(p) => onStart(p.email)} />
      </div>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4 border-t border-slate-200 pt-6">
        <TextField
          label="Recipient e-mail"
          type="email"
          required
          autoComplete="email"
          value={email}
          error={error}
          onChange={(event) => {
            setEmail(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" className="w-full" disabled={checking}>
          Start Chat
        </Button>
      </form>
      <ConversationList onOpen={onStart} />
    </section>
  );
}

const dateOf = (message: DirectMessage) => new Date(message.createdAt);

function DirectConversation({
  me,
  other,
  target,
}: {
  me: PublicUser;
  other: string;
  target?: { id: string; seq: number } | undefined;
}) {
  const chat = useDirectChat(me, other, target?.seq);
  // The message a search hit opened at: scrolled to and marked for a few seconds once it is shown.
  const shownTarget = target && chat.state.messages.some((m) => m._id === target.id) ? target.id : undefined;
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    if (!shownTarget) return;
    setFlash(shownTarget);
    const timer = setTimeout(() => setFlash(null), 4000);
    return () => clearTimeout(timer);
  }, [shownTarget]);
  const presence = usePersonPresence(other);
  const { editing, start: startEditing, done: doneEditing } = useMessageEditing();
  const myId = me._id;
  const { state } = chat;

  const isOwn = useCallback((message: DirectMessage) => same(message.sender, me.email), [me.email]);
  const queryClient = useQueryClient();
  const reads = useQuery(directUnreadQuery);
  const readState = reads.data?.find((d) => same(d.email, other));
  // Names, not addresses: from the conversation listing or the people I may message (else the
  // address's local part, the one naming rule's fallback).
  const person = useQuery(personQuery(other));
  const name = person.data?.name ?? readState?.name ?? displayName({ email: other });
  // Someone I share no workspace with: said before anything is typed (history stays readable).
  const refused = person.data === null;

  const saved = useSavedMessages('direct');

  /** A stored message's bubble with its actions, reactions and markers. */
  const renderMessage = (message: DirectMessage) => {
    const own = isOwn(message);
    const isEditing = editing === message._id;
    return (
      <ChatBubble
        key={message.clientId || message._id}
        id={`message-${message._id}`}
        highlighted={flash === message._id}
        own={own}
        content={message.content}
        attachments={message.attachments}
        date={dateOf(message)}
        name={own ? undefined : name}
        senderEmail={own ? undefined : message.sender}
        body={
          message.deleted ? (
            <DeletedBody />
          ) : isEditing ? (
            <EditForm
              initial={message.content}
              onSave={(content) => chat.edit(message._id, content)}
              onDone={doneEditing}
            />
          ) : undefined
        }
        meta={message.editedAt && !message.deleted ? <EditedMarker editedAt={message.editedAt} /> : undefined}
        actions={
          message.deleted || isEditing ? undefined : (
            <MessageActions
              own={own}
              canEdit={own}
              canDelete={own}
              onReact={(emoji) => {
                const mine = message.reactions
                  .find((r) => r.emoji === emoji)
                  ?.users.some((u) => u._id === myId);
                chat.react(message._id, emoji, !mine).catch(reactFailed);
              }}
              onEdit={() => startEditing(message._id)}
              onDelete={() => chat.remove(message._id)}
              saved={saved.isSaved(message._id)}
              onToggleSave={() => saved.toggle(message._id)}
            />
          )
        }
        below={
          <ReactionsRow
            reactions={message.reactions}
            myId={myId}
            onToggle={(emoji, on) => chat.react(message._id, emoji, on).catch(reactFailed)}
          />
        }
      />
    );
  };
  const recipientMissing = state.outbox.some((entry) => entry.error === CHAT_MESSAGES.recipientNotFound);

  return (
    <PersonCards>
      <section
        aria-labelledby="dm-heading"
        className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm md:h-[36rem] md:max-h-[calc(100dvh-12rem)] md:min-h-[26rem] md:flex-none dark:border-slate-800 dark:bg-slate-900"
      >
        <header className="flex shrink-0 items-center gap-3 border-b border-slate-200 px-4 py-3 sm:px-6 sm:py-4 dark:border-slate-800">
          <span className="relative shrink-0">
            <Avatar name={name} email={other} />
            <PresenceDot
              status={presence}
              className="absolute -right-0.5 -bottom-0.5 size-3 border-2 border-white"
            />
          </span>
          <h2 id="dm-heading" className="min-w-0 flex-1 truncate text-lg font-semibold text-slate-900">
            <PersonButton email={other} name={name} />
          </h2>
          {person.data && <CallButton email={other} />}
        </header>
        <ConversationView
          chat={chat}
          messages={state.messages}
          isOwn={isOwn}
          dateOf={dateOf}
          label={`Messages with ${name}`}
          emptyText={refused ? 'No messages.' : `No messages yet. Say hello to ${name}.`}
          anchorId={shownTarget ? `message-${shownTarget}` : undefined}
          reads={{
            settled: reads.isSuccess || reads.isError,
            // Not listed yet: a conversation without messages, so everything in it is new.
            lastReadSeq: readState?.lastReadSeq ?? (reads.isSuccess ? 0 : undefined),
            markedSeq: readState?.lastReadSeq,
            mark: async (seq) => {
              applyDirectUnread(queryClient, await markDirectRead(other, seq));
              // Reading the conversation read its notifications too (the server marks them).
              await refreshNotificationFeed(queryClient);
            },
          }}
          renderMessage={renderMessage}
          alert={
            refused ? (
              <p role="alert" className="border-b border-red-200 bg-red-50 px-6 py-2 text-sm text-red-800">
                {PEOPLE_MESSAGES.notMessageable}: you cannot message {other}. Use Close to start another chat.
              </p>
            ) : (
              recipientMissing && (
                <p role="alert" className="border-b border-red-200 bg-red-50 px-6 py-2 text-sm text-red-800">
                  {CHAT_MESSAGES.recipientNotFound}: no account you can message uses {other}. Check the
                  address, or use Close to start another chat.
                </p>
              )
            )
          }
        />
        <ChatComposer
          label={`Message ${name}`}
          onSend={chat.send}
          uploadTarget={{ dmWith: other }}
          disabled={refused}
          onEditLast={(composer) => {
            const last = lastEditableMessage(state.messages, isOwn);
            if (last) startEditing(last._id, composer);
            return !!last;
          }}
        />
      </section>
    </PersonCards>
  );
}

/** The direct conversation's Call: /video rings them at once (`?call=`). */
function CallButton({ email }: { email: string }) {
  const navigate = useNavigate();
  return (
    <Button
      variant="secondary"
      size="sm"
      className="ml-auto shrink-0"
      aria-label={`Call ${email}`}
      onClick={() => navigate(callUrl(email))}
    >
      <Phone aria-hidden="true" className="size-4" />
      Call
    </Button>
  );
}
