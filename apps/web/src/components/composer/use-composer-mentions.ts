import { type KeyboardEvent, useRef, useState } from 'react';
import type { TextEdit } from './format.ts';
import {
  activeMention,
  expandMentions,
  insertMention,
  type MentionCandidate,
  type MentionOption,
  matchMentions,
} from './mentions.ts';
import { activeShortcode, type EmojiOption, insertShortcode, matchShortcodes } from './shortcodes.ts';

export type SuggestionOption = MentionOption | EmojiOption;

/**
 * The composer's autocomplete over its text: @mentions (with candidates) and `:shortcode:` emojis.
 * Keeps the caret, the highlighted option, a trigger the user dismissed (Escape) and the members
 * picked so far (shown as `@Name`, sent as markup by `expand`). Off while the composer is disabled.
 */
export function useComposerMentions({
  draft,
  candidates,
  withChannel,
  disabled,
  apply,
}: {
  draft: string;
  candidates: readonly MentionCandidate[] | undefined;
  withChannel: boolean;
  disabled: boolean | undefined;
  apply: (edit: (value: string, start: number, end: number) => TextEdit) => void;
}) {
  const [caret, setCaret] = useState(0);
  const [activeOption, setActiveOption] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const picked = useRef<MentionCandidate[]>([]);
  const mention = candidates && !disabled ? activeMention(draft, caret) : null;
  const shortcode = !mention && !disabled ? activeShortcode(draft, caret) : null;
  const active = mention ?? shortcode;
  const options: SuggestionOption[] =
    !active || active.start === dismissed
      ? []
      : mention
        ? matchMentions(mention.query, candidates ?? [], withChannel)
        : matchShortcodes(active.query);
  const suggesting = options.length > 0;
  const highlighted = Math.min(activeOption, options.length - 1);

  const pick = (option: SuggestionOption) => {
    if (!active) return;
    if (option.kind === 'emoji') apply((v) => insertShortcode(v, active.start, caret, option));
    else {
      if (option.kind === 'member') picked.current = [...picked.current, option.member];
      apply((v) => insertMention(v, active.start, caret, option));
    }
    setActiveOption(0);
  };

  /** Arrows, Enter/Tab and Escape while suggesting; true when the key was the list's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!suggesting || !active) return false;
    const move = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (move) {
      event.preventDefault();
      setActiveOption((highlighted + move + options.length) % options.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      const option = options[highlighted];
      if (option) pick(option);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(active.start);
      return true;
    }
    return false;
  };

  return {
    options,
    /** What the list suggests, for its accessible name. */
    kind: mention ? ('mention' as const) : ('emoji' as const),
    suggesting,
    highlighted,
    pick,
    onKeyDown,
    /** The text to send: picked members' `@Name` as mention markup. */
    expand: (text: string) => expandMentions(text, picked.current),
    /** After sending: nothing is picked any more. */
    reset: () => {
      picked.current = [];
    },
    /** The text changed: the caret moved and the highlight starts over. */
    onChange: (selectionStart: number) => {
      setCaret(selectionStart);
      setActiveOption(0);
    },
    onSelect: (selectionStart: number) => setCaret(selectionStart),
  };
}
