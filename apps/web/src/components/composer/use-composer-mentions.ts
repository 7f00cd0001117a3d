import { type KeyboardEvent, useState } from 'react';
import type { TextEdit } from './format.ts';
import {
  activeMention,
  insertMention,
  type MentionCandidate,
  type MentionOption,
  matchMentions,
} from './mentions.ts';

/**
 * @mention autocomplete over the composer's text: the caret, the highlighted option, and an `@` the
 * user dismissed (Escape). Off without candidates or while the composer is disabled.
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
  const mention = candidates && !disabled ? activeMention(draft, caret) : null;
  const options: MentionOption[] =
    mention && mention.start !== dismissed ? matchMentions(mention.query, candidates ?? [], withChannel) : [];
  const suggesting = options.length > 0;
  const highlighted = Math.min(activeOption, options.length - 1);

  const pick = (option: MentionOption) => {
    if (!mention) return;
    apply((v) => insertMention(v, mention.start, caret, option));
    setActiveOption(0);
  };

  /** Arrows, Enter/Tab and Escape while suggesting; true when the key was the list's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!suggesting || !mention) return false;
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
      setDismissed(mention.start);
      return true;
    }
    return false;
  };

  return {
    options,
    suggesting,
    highlighted,
    pick,
    onKeyDown,
    /** The text changed: the caret moved and the highlight starts over. */
    onChange: (selectionStart: number) => {
      setCaret(selectionStart);
      setActiveOption(0);
    },
    onSelect: (selectionStart: number) => setCaret(selectionStart),
  };
}
