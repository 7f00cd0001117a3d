import { parseSearchQuery, type SearchResults, type TextSegment } from '@cohort/shared/search';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Hash, Lock, MessageCircle } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { readableSegments } from '../../components/markdown/readable.ts';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { recordRecentSearch } from '../switcher/switcher.public.ts';
import { messageLink, searchQuery } from './search.queries.ts';

/** Highlighted text from the server: matches in <mark>, everything as text (never HTML). */
export function Highlighted({ segments }: { segments: TextSegment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are a fixed sequence per render
          <mark key={i} className="rounded bg-amber-200 px-0.5 text-slate-900">
            {s.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are a fixed sequence per render
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

const FILTER_HINTS = [
  ['in:#general', 'in one channel'],
  ['from:ada@example.com', 'from someone (or from:me)'],
  ['after:2025-01-31', 'after a day'],
  ['before:2025-02-01', 'before a day'],
  ['during:2025-01-15', 'on a day'],
] as const;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /search?q= — what the navbar's search box finds, grouped, each result a link to it. */
export default function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  const parsed = q ? parseSearchQuery(q) : null;
  const results = useInfiniteQuery({ ...searchQuery(q), enabled: !!parsed?.ok });
  // Every full search that runs is a recent search (the search box suggests it again).
  const userId = useMe().data?._id;
  const runs = !!parsed?.ok;
  useEffect(() => {
    if (userId && runs) recordRecentSearch(userId, q);
  }, [userId, runs, q]);
  const pages = results.data?.pages ?? [];
  const first = pages[0];
  const messages = pages.flatMap((p) => p.messages);
  const nothing =
    first && messages.length === 0 && !first.channels.length && !first.tasks.length && !first.people.length;

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Search</h1>
      {parsed?.ok && <Chips query={parsed.query} />}
      {!q && <p className="mt-4 text-slate-700">Type in the search box above to search.</p>}
      {parsed && !parsed.ok && (
        <p role="alert" className="mt-4 text-red-800">
          {parsed.message}
        </p>
      )}
      {results.isPending && parsed?.ok && <p className="mt-4 text-slate-600">Searching…</p>}
      {results.isError && (
        <p role="alert" className="mt-4 text-red-800">
          {results.error.message}
        </p>
      )}
      {nothing && <p className="mt-6 text-lg font-medium text-slate-800">No results</p>}

      {first && first.channels.length > 0 && (
        <Group title="Channels">
          {first.channels.map((c) => (
            <li key={c._id}>
              <Link
                to={`/workspace/${encodeURIComponent(c.workspace.name)}/channel/${encodeURIComponent(c._id)}`}
                className="block rounded-lg px-3 py-2 hover:bg-slate-50"
              >
                <span className="flex items-center gap-1 font-medium text-slate-900">
                  {c.private ? (
                    <Lock aria-hidden="true" className="size-4" />
                  ) : (
                    <Hash aria-hidden="true" className="size-4" />
                  )}
                  <Highlighted segments={c.name} />
                  <span className="ml-2 text-xs font-normal text-slate-600">in {c.workspace.name}</span>
                </span>
                <span className="block text-sm text-slate-700">
                  <Highlighted segments={c.description} />
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}

      {messages.length > 0 && (
        <Group title="Messages">
          {messages.map((m) => (
            <li key={m._id}>
              <Link to={messageLink(m)} className="block rounded-lg px-3 py-2 hover:bg-slate-50">
                <span className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
                  <span className="font-semibold text-slate-800">{m.sender.name || m.sender.email}</span>
                  <HitPlace hit={m} />
                  <time dateTime={m.timestamp}>{when(m.timestamp)}</time>
                </span>
                <span className="mt-0.5 block text-sm break-words whitespace-pre-wrap text-slate-900">
                  <Highlighted segments={readableSegments(m.snippet)} />
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}
      {results.hasNextPage && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          disabled={results.isFetchingNextPage}
          onClick={() => void results.fetchNextPage()}
        >
          {results.isFetchingNextPage ? 'Loading…' : 'More messages'}
        </Button>
      )}

      {first && first.tasks.length > 0 && (
        <Group title="Tasks">
          {first.tasks.map((task) => (
            <li key={task._id}>
              <Link to={`/tasks/${task._id}`} className="block rounded-lg px-3 py-2 hover:bg-slate-50">
                <span className="font-medium text-slate-900">
                  <Highlighted segments={task.title} />
                </span>
                <span className="ml-2 text-xs text-slate-600">
                  {task.listTitle ?? 'Assigned to you'}
                  {task.archived ? ' · archived' : ''}
                </span>
              </Link>
            </li>
          ))}
        </Group>
      )}

      {first && first.people.length > 0 && (
        <Group title="People">
          {first.people.map((p) => (
            <li key={p._id} className="px-3 py-2">
              <span className="font-medium text-slate-900">
                <Highlighted segments={p.name} />
              </span>{' '}
              <span className="text-sm text-slate-700">
                <Highlighted segments={p.email} />
              </span>
            </li>
          ))}
        </Group>
      )}

      <details className="mt-8 text-sm text-slate-700">
        <summary className="cursor-pointer font-medium">Search filters</summary>
        <ul className="mt-2 space-y-1">
          {FILTER_HINTS.map(([example, meaning]) => (
            <li key={example}>
              <code className="rounded bg-slate-100 px-1">{example}</code> {meaning}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function HitPlace({ hit }: { hit: SearchResults['messages'][number] }) {
  if (hit.kind === 'direct') {
    return (
      <span className="inline-flex items-center gap-1">
        <MessageCircle aria-hidden="true" className="size-3" />
        with {hit.with.name || hit.with.email}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      {hit.channel.private ? (
        <Lock aria-hidden="true" className="size-3" />
      ) : (
        <Hash aria-hidden="true" className="size-3" />
      )}
      {hit.channel.name} · {hit.workspace.name}
      {hit.parentId ? ' · in a thread' : ''}
    </span>
  );
}

function Chips({ query }: { query: SearchResults['query'] }) {
  const chips = [
    ...(query.in ? [`in: #${query.in}`] : []),
    ...(query.from ? [`from: ${query.from}`] : []),
    ...(query.after ? [`after: ${query.after}`] : []),
    ...(query.before ? [`before: ${query.before}`] : []),
    ...(query.during ? [`during: ${query.during}`] : []),
  ];
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
      {query.words.length > 0 && (
        <span>
          Words: <strong>{query.words.join(' ')}</strong>
        </span>
      )}
      {chips.map((chip) => (
        <span key={chip} className="rounded-full bg-indigo-50 px-2 py-0.5 text-indigo-800">
          {chip}
        </span>
      ))}
    </p>
  );
}

function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="mt-6">
      <h2 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{title}</h2>
      <ul className="mt-2 divide-y divide-slate-100">{children}</ul>
    </section>
  );
}
