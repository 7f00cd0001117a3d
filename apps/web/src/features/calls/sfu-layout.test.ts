import { describe, expect, it } from 'vitest';
import { applyStreams, duplicateMids, speakerLayout, tracksByFeed } from './sfu-layout.ts';

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

/** What an m-line carries, as applyStreams records it. */
const c = (feed: string, feedMid: string | null = null) => ({ feed, feedMid });

describe('applyStreams (mid → feed from the subscriber streams)', () => {
  it('maps each active m-line to its publisher and that publisher’s stream', () => {
    const map = applyStreams(new Map(), [
      { mid: '0', type: 'audio', feed_id: 'sock-a', feed_mid: '0', active: true },
      { mid: '1', type: 'video', feed_id: 'sock-a', feed_mid: '1', active: true },
      { mid: '2', type: 'audio', feed_id: 'sock-b' },
    ]);
    expect([...map]).toEqual([
      ['0', c('sock-a', '0')],
      ['1', c('sock-a', '1')],
      ['2', c('sock-b')],
    ]);
  });

  it('forgets inactive m-lines (a publisher gone) and follows a mid given to someone else', () => {
    const before = new Map([
      ['0', c('sock-a')],
      ['1', c('sock-a')],
      ['2', c('sock-b')],
    ]);
    const after = applyStreams(before, [
      { mid: '0', active: false },
      { mid: '1', active: false, feed_id: 'sock-a' },
      { mid: '2', feed_id: 'sock-c', active: true },
    ]);
    expect([...after]).toEqual([['2', c('sock-c')]]);
    expect(before.size).toBe(3);
  });

  it('keeps mids an update does not mention, and skips garbage', () => {
    const after = applyStreams(new Map([['0', c('sock-a')]]), [
      null,
      'x',
      { feed_id: 'no-mid' },
      { mid: 3, feed_id: 7, feed_mid: 1 },
    ]);
    expect([...after]).toEqual([
      ['0', c('sock-a')],
      ['3', c('7', '1')],
    ]);
    expect([...applyStreams(new Map([['0', c('a')]]), undefined)]).toEqual([['0', c('a')]]);
  });
});

describe('duplicateMids', () => {
  it('names the later m-lines that carry a publisher stream an earlier one carries', () => {
    const carried = new Map([
      ['0', c('sock-a', '0')],
      ['1', c('sock-a', '1')],
      ['2', c('sock-b', '0')],
      ['3', c('sock-a', '1')],
      ['4', c('sock-a', '0')],
      ['5', c('sock-b')],
      ['6', c('sock-b')],
    ]);
    // Without feed_mid nothing can be told apart: such m-lines are never dropped.
    expect(duplicateMids(carried)).toEqual(['3', '4']);
  });
});

describe('tracksByFeed', () => {
  it('groups received tracks by the publisher their mid carries now, each publisher stream once', () => {
    const feeds = new Map([
      ['0', c('sock-a', '0')],
      ['1', c('sock-a', '1')],
      ['2', c('sock-b', '0')],
      ['3', c('sock-a', '1')],
    ]);
    const tracks = new Map([
      ['0', 'a-audio'],
      ['1', 'a-video'],
      ['2', 'b-audio'],
      ['3', 'a-video-again'],
      ['9', 'orphan'],
    ]);
    expect([...tracksByFeed(feeds, tracks)]).toEqual([
      ['sock-a', ['a-audio', 'a-video']],
      ['sock-b', ['b-audio']],
    ]);
  });
});
