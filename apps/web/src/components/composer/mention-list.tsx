import { cn } from '../../lib/cn.ts';
import { type MentionOption, optionLabel } from './mentions.ts';

/** The @mention suggestions under the text box; the text box points at the highlighted one. */
export function MentionList({
  id,
  options,
  highlighted,
  onPick,
}: {
  id: string;
  options: MentionOption[];
  highlighted: number;
  onPick: (option: MentionOption) => void;
}) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label="Mention suggestions"
      className="mt-1 max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
    >
      {options.map((option, index) => (
        <div
          key={option.kind === 'channel' ? '@channel' : option.member.id}
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
          <span className="font-medium">{optionLabel(option)}</span>
          <span className="truncate text-xs text-slate-600">
            {option.kind === 'channel' ? 'Notify everyone in this channel' : option.member.email}
          </span>
        </div>
      ))}
    </div>
  );
}
