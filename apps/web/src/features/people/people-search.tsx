import type { Person } from '@cohort/shared/people';
import { PEOPLE_QUERY_MAX_LENGTH } from '@cohort/shared/people.constants';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Avatar } from './avatar.tsx';
import { peopleSearchQuery } from './people.queries.ts';

/**
 * A search box for the people I share a workspace with (by name or e-mail), listing matches as
 * buttons: picking one calls `onPick`. Nobody else can be found, so nobody else can be picked.
 */
export function PeopleSearch({
  onPick,
  label = 'Find people',
}: {
  onPick: (p: Person) => void;
  label?: string;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  // One request per pause in typing, not per key.
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQuery({ ...peopleSearchQuery(q), enabled: q.length > 0 });
  const people = results.data ?? [];
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative mt-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        />
        <input
          id={id}
          type="search"
          value={text}
          maxLength={PEOPLE_QUERY_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          placeholder="Name or e-mail of someone in your workspaces"
          autoComplete="off"
          className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-500 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600"
        />
      </div>
      {q && (
        <div aria-live="polite" className="mt-2">
          {results.isError ? (
            <p className="text-sm text-red-800">The search failed. Try again.</p>
          ) : results.isSuccess && people.length === 0 ? (
            <p className="text-sm text-slate-600">Nobody in your workspaces matches “{q}”.</p>
          ) : (
            <ul aria-label="People found" className="space-y-1">
              {people.map((p) => (
                <li key={p._id}>
                  <button
                    type="button"
                    onClick={() => onPick(p)}
                    className="flex w-full items-center gap-3 rounded-lg px-2.5 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
                  >
                    <Avatar name={p.name} email={p.email} className="size-8 text-xs" />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-slate-900">{p.name}</span>
                      <span className="block truncate text-xs text-slate-600">{p.email}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
