import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { inputClasses } from '../ui/field.tsx';
import { EMOJIS } from './emoji-data.ts';

/**
 * A searchable emoji grid; Escape closes it, picking one inserts it at the caret. `embedded`: inside
 * a dialog of its own (reactions), not a popover over the composer's toolbar.
 */
export function EmojiPicker({
  onPick,
  onClose,
  embedded = false,
}: {
  onPick: (emoji: string) => void;
  onClose: () => void;
  embedded?: boolean;
}) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => search.current?.focus(), []);
  const matches = useMemo(() => {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return EMOJIS.filter(([, name]) => words.every((w) => name.includes(w)));
  }, [query]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the role is "dialog" or "group" (a prop), which Biome cannot see; Escape closes either.
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: as above; both roles take a label.
    <div
      role={embedded ? 'group' : 'dialog'}
      aria-label="Emojis"
      className={
        embedded
          ? 'w-full'
          : 'absolute bottom-full left-0 z-20 mb-2 w-72 rounded-lg border border-slate-200 bg-white p-2 shadow-lg'
      }
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <label htmlFor={searchId} className="sr-only">
        Search emojis
      </label>
      <input
        id={searchId}
        ref={search}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder="Search emojis"
        className={inputClasses}
        onKeyDown={(event) => {
          const first = matches[0];
          if (event.key === 'Enter' && first) {
            event.preventDefault();
            onPick(first[0]);
          }
        }}
      />
      <ul className="mt-2 grid max-h-48 grid-cols-8 gap-0.5 overflow-y-auto">
        {matches.map(([emoji, name]) => (
          <li key={emoji}>
            <button
              type="button"
              title={name}
              aria-label={name.split(' ').slice(0, 3).join(' ')}
              onClick={() => onPick(emoji)}
              className="flex size-8 items-center justify-center rounded text-lg hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              {emoji}
            </button>
          </li>
        ))}
      </ul>
      {matches.length === 0 && <p className="px-1 py-2 text-sm text-slate-600">No emoji found</p>}
    </div>
  );
}
