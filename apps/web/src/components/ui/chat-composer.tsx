import { MESSAGE_MAX_LENGTH } from '@cohort/shared/chat';
import { SendHorizontal } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from './button.tsx';
import { inputClasses } from './field.tsx';

interface ChatComposerProps {
  /** The input's accessible name (the placeholder is not a label). */
  label: string;
  /** Receives the text as typed; the caller decides what to send. */
  onSend: (text: string) => void;
  /** Every change of the input (typing announcements). */
  onInput?: (value: string) => void;
  disabled?: boolean;
}

/**
 * The message input with its Send button (SPEC §2, §5): Enter or Send submits; nothing is sent when
 * the trimmed text is empty; the input clears after sending and keeps the focus for the next message.
 */
export function ChatComposer({ label, onSend, onInput, disabled }: ChatComposerProps) {
  const [draft, setDraft] = useState('');
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim() || disabled) return;
    onSend(draft);
    setDraft('');
    onInput?.('');
  };

  return (
    <form onSubmit={submit} className="flex items-center gap-2 border-t border-slate-200 px-4 py-3 sm:px-6">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          onInput?.(event.target.value);
        }}
        placeholder="Type a message..."
        maxLength={MESSAGE_MAX_LENGTH}
        autoComplete="off"
        disabled={disabled}
        className={inputClasses}
      />
      <Button type="submit" disabled={disabled}>
        <SendHorizontal aria-hidden="true" className="size-4" />
        Send
      </Button>
    </form>
  );
}
