import { describe, expect, it } from 'vitest';
import { fuzzyMatch, highlight, isWordStart } from './fuzzy.ts';

const score = (q: string, text: string) => fuzzyMatch(q, text)?.score ?? null;

describe('fuzzyMatch', () => {
  it('matches a subsequence case-insensitively, ignoring spaces in the query', () => {
    expect(fuzzyMatch('DsRv', 'design-reviews')?.positions).toEqual([0, 2, 7, 9]);
    expect(fuzzyMatch('des rev', 'design-reviews')).not.toBeNull();
    expect(fuzzyMatch('xyz', 'design-reviews')).toBeNull();
    // Order matters.
    expect(fuzzyMatch('vd', 'design-reviews')).toBeNull();
  });

  it('ranks a prefix over a word start over a contiguous run over scattered characters', () => {
    const prefix = score('rev', 'reviews') as number;
    const wordStart = score('rev', 'design-reviews') as number;
    const contiguous = score('rev', 'prevent') as number;
    const scattered = score('rev', 'rockets-everywhere') as number;
    expect(prefix).toBeGreaterThan(wordStart);
    expect(wordStart).toBeGreaterThan(contiguous);
    expect(contiguous).toBeGreaterThan(scattered);
    expect(scattered).toBeGreaterThan(0);
  });

  it('prefers shorter texts and earlier runs within a tier', () => {
    expect(score('gen', 'general') as number).toBeGreaterThan(score('gen', 'general-chatter') as number);
    expect(score('ner', 'general') as number).toBeGreaterThan(score('ner', 'xxxxxgeneral') as number);
  });

  it('puts scattered characters on word starts when it can (acronyms), and scores those higher', () => {
    expect(fuzzyMatch('dr', 'design-reviews')?.positions).toEqual([0, 7]);
    expect(fuzzyMatch('ab', 'alpha beta')?.positions).toEqual([0, 6]);
    expect(score('fb', 'foo-bar') as number).toBeGreaterThan(score('fb', 'fxxxbxxx') as number);
    // camelCase counts as a word start.
    expect(fuzzyMatch('qs', 'quickSwitcher')?.positions).toEqual([0, 5]);
  });

  it('highlights a contiguous match where it starts a word', () => {
    expect(fuzzyMatch('rev', 'prevent-review')?.positions).toEqual([8, 9, 10]);
    expect(fuzzyMatch('rev', 'prevent')?.positions).toEqual([1, 2, 3]);
  });

  it('matches everything with an empty query', () => {
    expect(fuzzyMatch('  ', 'anything')).toEqual({ score: 0, positions: [] });
  });
});

describe('isWordStart', () => {
  it('is the first character, one after a separator, or a capital after a small letter', () => {
    expect(isWordStart('ab-cd', 0)).toBe(true);
    expect(isWordStart('ab-cd', 3)).toBe(true);
    expect(isWordStart('ab-cd', 1)).toBe(false);
    expect(isWordStart('abCd', 2)).toBe(true);
    expect(isWordStart('ABCD', 2)).toBe(false);
  });
});

describe('highlight', () => {
  it('cuts the text into matched and unmatched runs', () => {
    expect(highlight('design', [0, 1, 4])).toEqual([
      { text: 'de', match: true },
      { text: 'si', match: false },
      { text: 'g', match: true },
      { text: 'n', match: false },
    ]);
    expect(highlight('abc', [])).toEqual([{ text: 'abc', match: false }]);
  });
});
