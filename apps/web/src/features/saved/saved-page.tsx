import { CHAT_NAMESPACE } from '@cohort/shared/chat.constants';
import type { SavedItem } from '@cohort/shared/saved';
import { SAVED_EVENTS } from '@cohort/shared/saved.constants';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bookmark, Hash, MessageCircle, X } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { MarkdownExcerpt } from '../../components/markdown/markdown-excerpt.tsx';
import { api } from '../../lib/api.ts';
import { openLive } from '../../lib/live.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { refreshSaved, savedKeys, useSavedMessages } from './saved.queries.ts';

const savedListQuery = queryOptions({
  queryKey: savedKeys.list,
  queryFn: ({ signal }) => api.get<SavedItem[]>('/api/saved', signal),
});

/** A saved message's link: its channel at the message, or the direct conversation at it. */
export function savedItemPath(item: SavedItem): string {
  const c = item.conversation;
  if (c.kind === 'channel') {
    // A thread reply opens its thread (the channel view does that for a reply it is sent to).
    const params = new URLSearchParams({ message: item.messageId, seq: String(item.seq) });
    return `/workspace/${encodeURIComponent(c.workspaceName)}/channel/${encodeURIComponent(c.channelId)}?${params}`;
  }
  return `/chat?${new URLSearchParams({ with: c.email, message: item.messageId, seq: String(item.seq) })}`;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Longer texts are cut in the list; the link opens the whole message. */

/**
 * /saved (issue 22): the messages I saved for later, across workspaces and direct messages, newest
 * saved first, each linking to the message in its conversation. Only what I can still read is listed
 * (the server decides). Saves and removals in my other tabs arrive live (`savedChanged` on /chat).
 */
export default function SavedPage() {
  useDocumentTitle('Saved');
  const queryClient = useQueryClient();
  const list = useQuery(savedListQuery);

  useEffect(
    () =>
      openLive(CHAT_NAMESPACE, (socket) => {
        socket.on(SAVED_EVENTS.savedChanged, () => void refreshSaved(queryClient));
        // Whatever changed while the connection was down.
        socket.on('connect', () => void refreshSaved(queryClient));
        return undefined;
      }),
    [queryClient],
  );

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900 dark:text-slate-100">
        <Bookmark aria-hidden="true" className="size-6" />
        Saved
      </h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Messages you saved for later, newest first. Only you see this list.
      </p>
      {list.isPending && <p className="mt-6 text-slate-600">Loading…</p>}
      {list.isError && (
        <p role="alert" className="mt-6 text-red-800">
          Could not load your saved messages: {list.error.message}
        </p>
      )}
      {list.data && list.data.length === 0 && (
        <p className="mt-6 text-slate-700 dark:text-slate-300">
          Nothing saved yet. Choose “Save for later” on a message to find it here.
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <ul aria-label="Saved messages" className="mt-6 divide-y divide-slate-200 dark:divide-slate-800">
          {list.data.map((item) => (
            <SavedRow key={`${item.kind}:${item.messageId}`} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ConversationName({ item }: { item: SavedItem }) {
  const c = item.conversation;
  return c.kind === 'channel' ? (
    <span className="inline-flex items-center gap-0.5">
      {c.workspaceName} /
      <Hash aria-hidden="true" className="size-3" />
      <span className="sr-only">channel </span>
      {c.channelName}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1">
      <MessageCircle aria-hidden="true" className="size-3" />
      Direct message with {c.name}
    </span>
  );
}

function SavedRow({ item }: { item: SavedItem }) {
  const saved = useSavedMessages(item.kind);
  const sender = item.sender.name || item.sender.email;
  return (
    <li aria-label={`Saved message from ${sender}`} className="flex items-start gap-2 py-3">
      <Link
        to={savedItemPath(item)}
        className="block min-w-0 flex-1 rounded-lg px-3 py-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-slate-800"
      >
        <span className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600 dark:text-slate-400">
          <span className="font-semibold text-slate-800 dark:text-slate-200">{sender}</span>
          <ConversationName item={item} />
          <time dateTime={item.timestamp}>{when(item.timestamp)}</time>
        </span>
        <span className="mt-0.5 block text-sm break-words whitespace-pre-wrap text-slate-900 dark:text-slate-100">
          {item.content ? <MarkdownExcerpt source={item.content} /> : '(attachment)'}
        </span>
        <span className="sr-only">Open message</span>
      </Link>
      <button
        type="button"
        onClick={() => saved.set(item.messageId, false)}
        aria-label={`Remove from saved: message from ${sender}`}
        title="Remove from saved"
        className="mt-2 inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </li>
  );
}
