import { useQuery } from '@tanstack/react-query';
import { Hash, LayoutGrid, Lock } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/cn.ts';
import { Avatar } from '../people/people.public.ts';
import { destinationsOf, type RankedDestination, rankDestinations } from './destinations.ts';
import { Marked } from './marked.tsx';
import { readRecent, recordRecent } from './recent.ts';
import { switcherQuery } from './switcher.queries.ts';

const KIND_LABEL = { channel: 'Channel', person: 'Person', workspace: 'Workspace' } as const;

/**
 * The quick switcher (Ctrl/Cmd+K, switcher-hotkey.tsx): a modal dialog holding a combobox over the
 * channels, people and workspaces the user can open (WAI-ARIA APG combobox with a listbox popup: focus
 * stays in the input, the active option is `aria-activedescendant`). Up/Down move (wrapping), Enter
 * opens, Escape closes and focus returns to where it was (the dialog does that).
 */
export function QuickSwitcher({ userId, onClose }: { userId: string; onClose: () => void }) {
  const navigate = useNavigate();
  // What is cached shows at once; each opening also refreshes it (a channel made a moment ago).
  const data = useQuery({ ...switcherQuery, refetchOnMount: 'always' });
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const recent = useMemo(() => readRecent(userId, 'destinations'), [userId]);
  const items = useMemo(() => (data.data ? destinationsOf(data.data) : []), [data.data]);
  const results = useMemo(() => rankDestinations(items, query, recent), [items, query, recent]);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;
  const current = results.length > 0 ? Math.min(active, results.length - 1) : -1;

  useEffect(() => {
    if (current >= 0) document.getElementById(`${listId}-${current}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current, listId]);

  function open(d: RankedDestination) {
    recordRecent(userId, 'destinations', d.key);
    onClose();
    navigate(d.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const n = results.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (n === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + n) % n);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = results[current];
      if (chosen) open(chosen);
    }
  }

  const showList = results.length > 0;
  return (
    <Dialog
      title="Quick switcher"
      description="Go to a channel, person or workspace. Up and Down arrows move, Enter opens, Escape closes."
      onClose={onClose}
      className="max-w-xl"
    >
      <input
        data-autofocus
        type="text"
        role="combobox"
        aria-label="Go to"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={showList ? listId : undefined}
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Channel, person or workspace"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
      />
      {data.isPending && (
        <p role="status" className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          Loading…
        </p>
      )}
      {data.isError && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {data.error.message}
        </p>
      )}
      {data.isSuccess && !showList && (
        <p role="status" className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          No matches
        </p>
      )}
      {showList && (
        <div
          id={listId}
          role="listbox"
          aria-label="Destinations"
          className="mt-3 max-h-[min(24rem,60vh)] overflow-y-auto"
        >
          {results.map((d, i) => (
            <div
              key={d.key}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              tabIndex={-1}
              // mousedown, not click: the input keeps the focus.
              onMouseDown={(event) => {
                event.preventDefault();
                open(d);
              }}
              onMouseMove={() => i !== current && setActive(i)}
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2',
                i === current
                  ? 'bg-indigo-600 text-white'
                  : 'text-slate-900 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800',
              )}
            >
              <DestinationIcon d={d} />
              <span className="min-w-0 flex-1">
                <span className="sr-only">{KIND_LABEL[d.kind]} </span>
                <span className="block truncate font-medium">
                  <Marked text={d.label} positions={d.labelMatch} />
                  {d.archived && <span className="ml-2 text-xs font-normal">(archived)</span>}
                </span>
                {d.detail && (
                  <span
                    className={cn(
                      'block truncate text-sm',
                      i === current ? 'text-indigo-50' : 'text-slate-600 dark:text-slate-300',
                    )}
                  >
                    <Marked text={d.detail} positions={d.detailMatch} />
                  </span>
                )}
              </span>
              <span
                aria-hidden="true"
                className={cn(
                  'shrink-0 text-xs',
                  i === current ? 'text-indigo-50' : 'text-slate-600 dark:text-slate-300',
                )}
              >
                {KIND_LABEL[d.kind]}
              </span>
            </div>
          ))}
        </div>
      )}
    </Dialog>
  );
}

function DestinationIcon({ d }: { d: RankedDestination }) {
  if (d.kind === 'person') return <Avatar name={d.label} email={d.detail} className="size-8 text-xs" />;
  const Icon = d.kind === 'workspace' ? LayoutGrid : d.private ? Lock : Hash;
  return (
    <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center">
      <Icon className="size-4" />
    </span>
  );
}
