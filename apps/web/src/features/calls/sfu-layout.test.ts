import { describe, expect, it } from 'vitest';
import { applyStreams, speakerLayout, tracksByFeed } from './sfu-layout.ts';

describe('speakerLayout', () => {
  const ids = ['a', 'b', 'c', 'd'];

  it('shows everyone speaking large, in participant order, and the rest in the strip', () => {
    expect(speakerLayout(ids, new Set(['c', 'a']), 'd')).toEqual({ large: ['a', 'c'], strip: ['b', 'd'] });
  });

  it('shows the most recent speaker when nobody speaks', () => {
    expect(speakerLayout(ids, new Set(), 'c')).toEqual({ large: ['c'], strip: ['a', 'b', 'd'] });
  });

  it('falls back to the first participant when the last speaker left or nobody spoke yet', () => {
    expect(speakerLayout(ids, new Set(), 'gone')).toEqual({ large: ['a'], strip: ['b', 'c', 'd'] });
    expect(speakerLayout(ids, new Set(), null)).toEqual({ large: ['a'], strip: ['b', 'c', 'd'] });
  });

  it('ignores speakers who are not participants (ourselves, someone who just left)', () => {
    expect(speakerLayout(ids, new Set(['me']), 'b')).toEqual({ large: ['b'], strip: ['a', 'c', 'd'] });
  });

  it('is empty alone', () => {
    expect(speakerLayout([], new Set(['me']), null)).toEqual({ large: [], strip: [] });
  });
});

describe('applyStreams (mid → feed from the subscriber streams)', () => {
  it('maps each active m-line to its publisher', () => {
    const map = applyStreams(new Map(), [
      { mid: '0', type: 'audio', feed_id: 'sock-a', active: true },
      { mid: '1', type: 'video', feed_id: 'sock-a', active: true },
      { mid: '2', type: 'audio', feed_id: 'sock-b' },
    ]);
    expect([...map]).toEqual([
      ['0', 'sock-a'],
      ['1', 'sock-a'],
      ['2', 'sock-b'],
    ]);
  });

  it('forgets inactive m-lines (a publisher gone) and follows a mid given to someone else', () => {
    const before = new Map([
      ['0', 'sock-a'],
      ['1', 'sock-a'],
      ['2', 'sock-b'],
    ]);
    const after = applyStreams(before, [
      { mid: '0', active: false },
      { mid: '1', active: false, feed_id: 'sock-a' },
      { mid: '2', feed_id: 'sock-c', active: true },
    ]);
    expect([...after]).toEqual([['2', 'sock-c']]);
    expect(before.size).toBe(3);
  });

  it('keeps mids an update does not mention, and skips garbage', () => {
    const after = applyStreams(new Map([['0', 'sock-a']]), [
      null,
      'x',
      { feed_id: 'no-mid' },
      { mid: 3, feed_id: 7 },
    ]);
    expect([...after]).toEqual([
      ['0', 'sock-a'],
      ['3', '7'],
    ]);
    expect([...applyStreams(new Map([['0', 'a']]), undefined)]).toEqual([['0', 'a']]);
  });
});

describe('tracksByFeed', () => {
  it('groups received tracks by the publisher their mid carries now', () => {
    const feeds = new Map([
      ['0', 'sock-a'],
      ['1', 'sock-a'],
      ['2', 'sock-b'],
    ]);
    const tracks = new Map([
      ['0', 'a-audio'],
      ['1', 'a-video'],
      ['2', 'b-audio'],
      ['9', 'orphan'],
    ]);
    expect([...tracksByFeed(feeds, tracks)]).toEqual([
      ['sock-a', ['a-audio', 'a-video']],
      ['sock-b', ['b-audio']],
    ]);
  });
});
