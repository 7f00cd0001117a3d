import { describe, expect, it } from 'vitest';
import { messageContent } from './chat.ts';
import { createTaskBody } from './tasks.ts';
import { findUnstorableText, isStorableText, text, UNSTORABLE_TEXT } from './text.ts';

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, keeps every real character', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', 'end\ud83d']) {
      expect(isStorableText(bad)).toBe(false);
    }
    for (const good of [
      '',
      'plain',
      '😀 emoji pair',
      '\u202e\u0301',
      '中文',
      '\u0001\u001f',
      'tab\tnew\nline',
    ]) {
      expect(isStorableText(good)).toBe(true);
    }
  });

  it('names the first field holding such text, keys included, at any depth', () => {
    expect(findUnstorableText({ a: 'ok', b: ['fine', { c: 'x\u0000' }] })).toBe('b.1.c');
    expect(findUnstorableText({ 'k\ud800': 1 })).toBe('k\ud800');
    expect(findUnstorableText('\u0000')).toBe('body');
    expect(findUnstorableText({ a: 1, b: null, c: ['ok'] })).toBeNull();
  });

  it('is the message shared schemas give, on both sides', () => {
    const parsed = messageContent.safeParse('hi\u0000');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(UNSTORABLE_TEXT);
    const task = createTaskBody.safeParse({ title: 'a\ud800' });
    expect(task.error?.issues[0]).toMatchObject({ path: ['title'], message: UNSTORABLE_TEXT });
    expect(text().trim().max(3).safeParse(' abc ').success).toBe(true);
  });
});
