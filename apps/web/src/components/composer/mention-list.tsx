import { cn } from '../../lib/cn.ts';
import { optionLabel } from './mentions.ts';
import type { SuggestionOption } from './use-composer-mentions.ts';

const keyOf = (o: SuggestionOption) =>
  o.kind === 'channel' ? '@channel' : o.kind === 'emoji' ? o.emoji : o.member.id;

/** The @mention or `:shortcode:` suggestions under the text box; the text box points at the highlighted one. */
export function MentionList({
  id,
  kind,
  options,
  highlighted,
  onPick,
}: {
  id: string;
  kind: 'mention' | 'emoji';
  options: SuggestionOption[];
  highlighted: number;
  onPick: (option: SuggestionOption) => void;
}) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label={kind === 'mention' ? 'Mention suggestions' : 'Emoji suggestions'}
      className="mt-1 max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
    >
      {options.map((option, index) => (
        <div
          key={keyOf(option)}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === highlighted}
          tabIndex={-1}
          className={cn(
            'flex cursor-pointer items-baseline gap-2 px-3 py-1.5',
            index === highlighted ? 'bg-indigo-100 text-indigo-900' : 'text-slate-800',
          )}
          // mousedown, not click: the textarea keeps the focus and the caret.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(option);
          }}
        >
          {option.kind === 'emoji' ? (
            <>
              <span className="text-base">{option.emoji}</span>
              <span className="font-medium">:{option.code}:</span>
            </>
          ) : (
            <>
              <span className="font-medium">{optionLabel(option)}</span>
              <span className="truncate text-xs text-slate-600">
                {option.kind === 'channel' ? 'Notify everyone in this channel' : option.member.email}
              </span>
            </>
          )}
        </div>
      ))}
    </div>
  );
}
