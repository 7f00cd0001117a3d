import { useQuery } from '@tanstack/react-query';
import { Clock, Hash, Lock } from 'lucide-react';
import { type RefObject, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { cn } from '../../lib/cn.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { Avatar } from '../people/people.public.ts';
import { destinationsOf, type RankedDestination, rankDestinations } from './destinations.ts';
import { fuzzyMatch } from './fuzzy.ts';
import { Marked } from './marked.tsx';
import { readRecent, recordRecent } from './recent.ts';
import { switcherQuery } from './switcher.queries.ts';

/** What the navbar's input needs to be the combobox of this listbox. */
export interface ComboState {
  open: boolean;
  listId?: string;
  activeId?: string;
}

const CHANNELS_MAX = 5;
const PEOPLE_MAX = 3;
const SEARCHES_MAX = 3;

type Suggestion =
  | { kind: 'destination'; key: string; d: RankedDestination }
  | { kind: 'search'; key: string; q: string; positions: number[] };

/**
 * The search box's suggestions (loaded when the box is first focused, app/navbar.tsx): while the
 * signed-in user types, the matching channels and people (the quick switcher's data and matcher, no
 * request per keystroke) and their matching recent searches, as the listbox of the navbar's combobox.
 * Up/Down pick one and Enter opens it; Enter without one picked submits the form (the full search);
 * Escape closes the list. The input stays the navbar's: the keys are read from it here.
 */
export function SearchSuggestions({
  input,
  text,
  onCombo,
  onPicked,
}: {
  input: RefObject<HTMLInputElement | null>;
  text: string;
  onCombo: (state: ComboState) => void;
  /** The box's new text after a pick: '' for a channel or person, the query of a recent search. */
  onPicked: (text: string) => void;
}) {
  const me = useMe();
  const userId = me.data?._id;
  const navigate = useNavigate();
  const typed = text.trim();
  const data = useQuery({ ...switcherQuery, enabled: !!userId && typed.length > 0 });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();

  const suggestions = useMemo((): Suggestion[] => {
    if (!userId || !typed) return [];
    const recent = readRecent(userId, 'destinations');
    const all = data.data ? destinationsOf(data.data) : [];
    const ranked = (kind: 'channel' | 'person', max: number) =>
      rankDestinations(
        all.filter((d) => d.kind === kind),
        typed,
        recent,
        max,
      ).map((d): Suggestion => ({ kind: 'destination', key: d.key, d }));
    const searches = readRecent(userId, 'searches')
      .map((q) => ({ q, match: fuzzyMatch(typed, q) }))
      .filter((s) => s.match !== null)
      // Stable: equally good matches stay most recent first.
      .sort((a, b) => (b.match?.score ?? 0) - (a.match?.score ?? 0))
      .slice(0, SEARCHES_MAX)
      .map(
        (s): Suggestion => ({
          kind: 'search',
          key: `search:${s.q}`,
          q: s.q,
          positions: s.match?.positions ?? [],
        }),
      );
    return [...ranked('channel', CHANNELS_MAX), ...ranked('person', PEOPLE_MAX), ...searches];
  }, [userId, typed, data.data]);

  const visible = open && suggestions.length > 0;
  const current = visible && active < suggestions.length ? active : -1;
  const optionId = (i: number) => `${listId}-${i}`;

  // Typing (re)opens the list with nothing picked.
  useEffect(() => {
    setActive(-1);
    setOpen(document.activeElement === input.current && typed.length > 0);
  }, [typed, input]);

  const activeId = current >= 0 ? `${listId}-${current}` : undefined;
  useEffect(() => {
    onCombo(visible ? { open: true, listId, activeId } : { open: false });
  }, [onCombo, visible, listId, activeId]);
  useEffect(() => () => onCombo({ open: false }), [onCombo]);

  function pick(s: Suggestion) {
    setOpen(false);
    setActive(-1);
    if (s.kind === 'search') {
      onPicked(s.q);
      navigate(`/search?${new URLSearchParams({ q: s.q })}`);
      return;
    }
    if (userId) recordRecent(userId, 'destinations', s.key);
    onPicked('');
    navigate(s.d.href);
  }

  useEffect(() => {
    const node = input.current;
    if (!node) return;
    const n = suggestions.length;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (n === 0) return;
        event.preventDefault();
        if (!visible) {
          setOpen(true);
          setActive(event.key === 'ArrowDown' ? 0 : n - 1);
          return;
        }
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive(current < 0 ? (step > 0 ? 0 : n - 1) : (current + step + n) % n);
      } else if (event.key === 'Enter') {
        const chosen = current >= 0 ? suggestions[current] : undefined;
        if (chosen) {
          // Not the form's submit: the picked suggestion opens instead of the full search.
          event.preventDefault();
          pick(chosen);
        } else {
          setOpen(false);
        }
      } else if (event.key === 'Escape' && visible) {
        // Closes the list only (a search field would also clear its text).
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    };
    const onBlur = () => setOpen(false);
    node.addEventListener('keydown', onKeyDown);
    node.addEventListener('blur', onBlur);
    return () => {
      node.removeEventListener('keydown', onKeyDown);
      node.removeEventListener('blur', onBlur);
    };
  });

  if (!visible) return null;
  return (
    <div
      id={listId}
      role="listbox"
      aria-label="Suggestions"
      className="absolute top-full left-0 z-40 mt-1 w-full max-w-sm overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
    >
      {suggestions.map((s, i) => (
        <div
          key={s.key}
          id={optionId(i)}
          role="option"
          aria-selected={i === current}
          tabIndex={-1}
          // mousedown, not click: the search box keeps the focus.
          onMouseDown={(event) => {
            event.preventDefault();
            pick(s);
          }}
          className={cn(
            'flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm',
            i === current
              ? 'bg-indigo-600 text-white'
              : 'text-slate-900 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800',
          )}
        >
          <SuggestionBody s={s} active={i === current} />
        </div>
      ))}
    </div>
  );
}

function SuggestionBody({ s, active }: { s: Suggestion; active: boolean }) {
  const muted = active ? 'text-indigo-50' : 'text-slate-600 dark:text-slate-300';
  if (s.kind === 'search') {
    return (
      <>
        <Clock aria-hidden="true" className="size-4 shrink-0" />
        <span className="sr-only">Recent search </span>
        <span className="min-w-0 flex-1 truncate">
          <Marked text={s.q} positions={s.positions} />
        </span>
      </>
    );
  }
  const d = s.d;
  if (d.kind === 'person') {
    return (
      <>
        <Avatar name={d.label} email={d.detail} className="size-6 text-[0.65rem]" />
        <span className="sr-only">Person </span>
        <span className="min-w-0 flex-1 truncate">
          <Marked text={d.label} positions={d.labelMatch} />{' '}
          <span className={muted}>
            <Marked text={d.detail} positions={d.detailMatch} />
          </span>
        </span>
      </>
    );
  }
  const Icon = d.private ? Lock : Hash;
  return (
    <>
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      <span className="sr-only">Channel </span>
      <span className="min-w-0 flex-1 truncate">
        <Marked text={d.label} positions={d.labelMatch} /> <span className={muted}>{d.detail}</span>
        {d.archived && <span className={cn('ml-1 text-xs', muted)}>(archived)</span>}
      </span>
    </>
  );
}
