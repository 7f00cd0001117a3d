import { afterEach, describe, expect, it } from 'vitest';
import { forgetUser } from '../../lib/storage.ts';
import {
  destinationOfLocation,
  pushRecent,
  RECENT_DESTINATIONS_MAX,
  RECENT_SEARCHES_MAX,
  readRecent,
  recentKey,
  recentStorageKey,
  recordRecent,
} from './recent.ts';

afterEach(() => localStorage.clear());

describe('pushRecent', () => {
  it('puts the entry first, without duplicates, capped', () => {
    expect(pushRecent(['a', 'b', 'c'], 'c', 5)).toEqual(['c', 'a', 'b']);
    expect(pushRecent(['a', 'b', 'c'], 'd', 3)).toEqual(['d', 'a', 'b']);
    expect(pushRecent([], 'a', 3)).toEqual(['a']);
  });
});

describe('recordRecent and readRecent', () => {
  it('keeps each user their own lists, most recent first, capped', () => {
    for (let i = 0; i < RECENT_SEARCHES_MAX + 3; i++) recordRecent('u1', 'searches', `q${i}`);
    recordRecent('u1', 'searches', 'q5');
    const searches = readRecent('u1', 'searches');
    expect(searches).toHaveLength(RECENT_SEARCHES_MAX);
    expect(searches.slice(0, 2)).toEqual(['q5', `q${RECENT_SEARCHES_MAX + 2}`]);
    expect(readRecent('u2', 'searches')).toEqual([]);
    for (let i = 0; i < RECENT_DESTINATIONS_MAX + 5; i++) recordRecent('u1', 'destinations', `channel:${i}`);
    expect(readRecent('u1', 'destinations')).toHaveLength(RECENT_DESTINATIONS_MAX);
  });

  it('ignores blank entries and unreadable storage', () => {
    recordRecent('u1', 'searches', '   ');
    expect(readRecent('u1', 'searches')).toEqual([]);
    localStorage.setItem(recentStorageKey('u1', 'searches'), '{not json');
    expect(readRecent('u1', 'searches')).toEqual([]);
    localStorage.setItem(recentStorageKey('u1', 'searches'), JSON.stringify(['ok', 3, null]));
    expect(readRecent('u1', 'searches')).toEqual(['ok']);
  });

  it('is forgotten on sign-out', () => {
    recordRecent('u1', 'searches', 'secret plans');
    forgetUser();
    expect(readRecent('u1', 'searches')).toEqual([]);
  });
});

describe('destinationOfLocation', () => {
  it('knows channel, workspace and direct conversation pages', () => {
    expect(destinationOfLocation('/workspace/Acme%20Co/channel/c-1', '')).toBe(recentKey.channel('c-1'));
    expect(destinationOfLocation('/workspace/Acme%20Co', '')).toBe('workspace:acme co');
    expect(destinationOfLocation('/chat', '?with=Ada%40Example.com')).toBe('person:ada@example.com');
    expect(destinationOfLocation('/workspace/create', '')).toBeNull();
    expect(destinationOfLocation('/workspace/acme/settings', '')).toBeNull();
    expect(destinationOfLocation('/chat', '')).toBeNull();
    expect(destinationOfLocation('/task', '')).toBeNull();
  });
});
