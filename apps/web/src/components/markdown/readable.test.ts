import { describe, expect, it } from 'vitest';
import { readableSegments } from './readable.ts';

const plain = (text: string) => ({ text, match: false });
const hit = (text: string) => ({ text, match: true });

describe('readableSegments', () => {
  it('drops the Markdown markers around and inside a match, keeping it marked', () => {
    expect(
      readableSegments([plain('ship the **'), hit('release'), plain('** on _Friday_ ~~not~~ `now`')]),
    ).toEqual([plain('ship the '), hit('release'), plain(' on Friday not now')]);
  });

  it('shows a member mention as @Name, with a match in the name', () => {
    expect(
      readableSegments([plain('ask @['), hit('Ada'), plain(' Lovelace](ada@example.com) about it')]),
    ).toEqual([plain('ask @'), hit('Ada'), plain(' Lovelace about it')]);
  });

  it('keeps code text and raw HTML as text, and ignores look-alike sentinels in the source', () => {
    expect(
      readableSegments([plain('```\nconst a = 1;\n```\n<b>\uE000'), hit('zeppelin'), plain('</b>')]),
    ).toEqual([plain('const a = 1;\n<b>'), hit('zeppelin'), plain('</b>')]);
  });

  it('leaves text without Markdown as it was', () => {
    expect(readableSegments([plain('x < y & '), hit('quoted'), plain(' 2*3')])).toEqual([
      plain('x < y & '),
      hit('quoted'),
      plain(' 2*3'),
    ]);
  });
});
