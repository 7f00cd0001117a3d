import { useLayoutEffect, useRef, useState } from 'react';
import { type FormatKind, MARKERS, type TextEdit, toggleWrap } from './format.ts';

/** The composer's text and its formatting: every edit keeps the focus and puts the selection back. */
export function useComposerText(onInput?: (value: string) => void) {
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);

  const setText = (value: string) => {
    setDraft(value);
    onInput?.(value);
  };

  // The selection an edit asks for is put in place in the same commit as its text, so a selection
  // the user makes right after (a click, a shortcut) is never overwritten a frame later.
  const pendingSelection = useRef<TextEdit | null>(null);
  useLayoutEffect(() => {
    const node = input.current;
    const wanted = pendingSelection.current;
    pendingSelection.current = null;
    if (!node || !wanted || node.value !== wanted.value) return;
    node.focus();
    node.setSelectionRange(wanted.selectionStart, wanted.selectionEnd);
  });

  /** Applies an edit to the text and puts the selection where the edit says, keeping the focus. */
  const apply = (edit: (value: string, start: number, end: number) => TextEdit) => {
    const node = input.current;
    if (!node) return;
    const result = edit(node.value, node.selectionStart, node.selectionEnd);
    if (result.value === node.value) {
      node.focus();
      node.setSelectionRange(result.selectionStart, result.selectionEnd);
      return;
    }
    pendingSelection.current = result;
    setText(result.value);
  };
  const format = (kind: FormatKind) => apply((v, s, e) => toggleWrap(v, s, e, MARKERS[kind]));

  return { draft, input, setText, apply, format };
}

/** The formatting shortcut a key press asks for: Ctrl/Cmd+B, I or U. */
export function shortcutFormat(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}): FormatKind | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined;
  const key = event.key.toLowerCase();
  return key === 'b' ? 'bold' : key === 'i' ? 'italic' : key === 'u' ? 'underline' : undefined;
}
