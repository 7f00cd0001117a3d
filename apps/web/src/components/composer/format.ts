/**
 * Markdown-style markup for the composer's toolbar and shortcuts, as pure text edits:
 * Bold `**b**`, Italic `*i*`, Underline `__u__` (Cohort's dialect: double underscore underlines),
 * inline `code` within a line, and a ``` fenced block otherwise.
 */

export interface TextEdit {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

export const MARKERS = { bold: '**', italic: '*', underline: '__' } as const;
export type FormatKind = keyof typeof MARKERS;

/** Wraps the selection in `marker`, or unwraps it when it is wrapped already (a toggle). */
export function toggleWrap(value: string, start: number, end: number, marker: string): TextEdit {
  const m = marker.length;
  const selected = value.slice(start, end);
  const before = value.slice(Math.max(0, start - m), start);
  const after = value.slice(end, end + m);
  // `*` must not take the inner half of a `**` pair for its own.
  const isolated = (at: number) => m !== 1 || value[at] !== marker;
  if (before === marker && after === marker && isolated(start - m - 1) && isolated(end + m)) {
    return {
      value: value.slice(0, start - m) + selected + value.slice(end + m),
      selectionStart: start - m,
      selectionEnd: end - m,
    };
  }
  if (selected.length >= 2 * m && selected.startsWith(marker) && selected.endsWith(marker)) {
    const inner = selected.slice(m, selected.length - m);
    return {
      value: value.slice(0, start) + inner + value.slice(end),
      selectionStart: start,
      selectionEnd: start + inner.length,
    };
  }
  // Keep the spaces of a sloppy selection outside the markers (`** b**` would not parse).
  const lead = selected.length - selected.trimStart().length;
  const trail = selected.length - selected.trimEnd().length;
  const core = selected.trim();
  if (core === '' && selected !== '') {
    return { value, selectionStart: start, selectionEnd: end };
  }
  const s = start + lead;
  const e = end - trail;
  return {
    value: value.slice(0, s) + marker + core + marker + value.slice(e),
    selectionStart: s + m,
    selectionEnd: e + m,
  };
}

/** Inline code for a selection within one line; a fenced block for several lines or none. */
export function insertCode(value: string, start: number, end: number): TextEdit {
  const selected = value.slice(start, end);
  if (selected !== '' && !selected.includes('\n')) return toggleWrap(value, start, end, '`');
  const atLineStart = start === 0 || value[start - 1] === '\n';
  const atLineEnd = end === value.length || value[end] === '\n';
  const open = `${atLineStart ? '' : '\n'}\`\`\`\n`;
  const close = `\n\`\`\`${atLineEnd ? '' : '\n'}`;
  return {
    value: value.slice(0, start) + open + selected + close + value.slice(end),
    selectionStart: start + open.length,
    selectionEnd: start + open.length + selected.length,
  };
}

/** Replaces the selection with `text` (an emoji), the caret after it. */
export function insertText(value: string, start: number, end: number, text: string): TextEdit {
  const caret = start + text.length;
  return {
    value: value.slice(0, start) + text + value.slice(end),
    selectionStart: caret,
    selectionEnd: caret,
  };
}
