import { describe, expect, it } from 'vitest';
import { emojiSchema } from './chat.ts';

describe('emojiSchema (reactions)', () => {
  it.each(['👍', '❤️', '😄', '👋🏽', '👩🏽‍💻', '🏳️‍🌈', '🇫🇷', '1️⃣', '#️⃣', '©️', '🫠', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'])(
    'accepts %s',
    (emoji) => {
      expect(emojiSchema.safeParse(emoji).success).toBe(true);
    },
  );

  it.each([
    'a',
    'ok',
    '1',
    '#',
    '👍👍',
    '👍 ',
    ' ',
    '',
    '\u200d',
    '\ufe0f',
    '🏻',
    '<b>',
    `👍${'\ufe0f'.repeat(40)}`,
  ])('refuses %j', (text) => {
    expect(emojiSchema.safeParse(text).success).toBe(false);
  });
});
