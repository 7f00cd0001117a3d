import { type KeyboardEvent, useId, useLayoutEffect, useRef } from 'react';
import type { TextEdit } from '../../components/composer/format.ts';
import { MentionList } from '../../components/composer/mention-list.tsx';
import type { MentionCandidate } from '../../components/composer/mentions.ts';
import { useComposerMentions } from '../../components/composer/use-composer-mentions.ts';

/**
 * @mention completion for a card's description or comment box, with the chat composer's helpers:
 * a picked member shows as `@Name` and is sent as `@[Name](email)` (`expand`), which notifies them.
 */
export function useMentionField(
  value: string,
  setValue: (next: string) => void,
  candidates: readonly MentionCandidate[] | undefined,
) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const pending = useRef<TextEdit | null>(null);
  useLayoutEffect(() => {
    const node = ref.current;
    const wanted = pending.current;
    pending.current = null;
    if (!node || !wanted || node.value !== wanted.value) return;
    node.focus();
    node.setSelectionRange(wanted.selectionStart, wanted.selectionEnd);
  });
  const mentions = useComposerMentions({
    draft: value,
    candidates,
    withChannel: false,
    disabled: false,
    apply: (edit) => {
      const node = ref.current;
      if (!node) return;
      const result = edit(node.value, node.selectionStart, node.selectionEnd);
      pending.current = result;
      setValue(result.value);
    },
  });
  return {
    expand: mentions.expand,
    reset: mentions.reset,
    /** Call first from the box's own onKeyDown: true when the suggestion list took the key. */
    onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => mentions.onKeyDown(event),
    textareaProps: {
      ref,
      onChange: (event: { target: HTMLTextAreaElement }) => {
        setValue(event.target.value);
        mentions.onChange(event.target.selectionStart);
      },
      onSelect: (event: { currentTarget: HTMLTextAreaElement }) =>
        mentions.onSelect(event.currentTarget.selectionStart),
      'aria-autocomplete': 'list' as const,
      'aria-controls': mentions.suggesting ? listId : undefined,
      'aria-activedescendant': mentions.suggesting ? `${listId}-${mentions.highlighted}` : undefined,
    },
    list: mentions.suggesting ? (
      <MentionList
        id={listId}
        kind={mentions.kind}
        options={mentions.options}
        highlighted={mentions.highlighted}
        onPick={mentions.pick}
      />
    ) : null,
  };
}
