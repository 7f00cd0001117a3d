import { describe, expect, it } from 'vitest';
import { insertCode, insertText, toggleWrap } from './format.ts';

describe('composer formatting', () => {
  it('wraps the selection and keeps it selected', () => {
    expect(toggleWrap('make it bold', 8, 12, '**')).toEqual({
      value: 'make it **bold**',
      selectionStart: 10,
      selectionEnd: 14,
    });
    expect(toggleWrap('a b', 2, 3, '__')).toEqual({ value: 'a __b__', selectionStart: 4, selectionEnd: 5 });
  });

  it('unwraps what is wrapped already (a toggle), inside or around the selection', () => {
    expect(toggleWrap('make it **bold**', 10, 14, '**').value).toBe('make it bold');
    expect(toggleWrap('make it **bold**', 8, 16, '**').value).toBe('make it bold');
  });

  it('does not take half of a bold marker for italic', () => {
    expect(toggleWrap('**bold**', 2, 6, '*').value).toBe('***bold***');
  });

  it('keeps spaces of a sloppy selection outside the markers; an empty selection gets an empty pair', () => {
    expect(toggleWrap('a word here', 1, 7, '*').value).toBe('a *word* here');
    expect(toggleWrap('ab', 1, 1, '**')).toEqual({ value: 'a****b', selectionStart: 3, selectionEnd: 3 });
  });

  it('inserts inline code within a line and a fenced block otherwise', () => {
    expect(insertCode('run npm test now', 4, 12).value).toBe('run `npm test` now');
    expect(insertCode('a\nb', 0, 3)).toEqual({ value: '```\na\nb\n```', selectionStart: 4, selectionEnd: 7 });
    expect(insertCode('see ', 4, 4).value).toBe('see \n```\n\n```');
  });

  it('inserts text (an emoji) at the caret', () => {
    expect(insertText('hi !', 3, 3, '👋')).toEqual({ value: 'hi 👋!', selectionStart: 5, selectionEnd: 5 });
  });
});
