import { describe, expect, it } from 'vitest';
import { initialsOf, sidebarGroups, workspaceBadge } from './sidebar-groups.ts';
import { aChannel } from './test-data.ts';

const unread = (channelId: string, n: number, muted = false) => ({
  channelId,
  workspaceId: 'w1',
  lastReadSeq: 0,
  lastSeq: n,
  unread: n,
  muted,
});

describe('sidebarGroups', () => {
  const joined = aChannel({ _id: 'a', name: 'joined' });
  const starred = aChannel({ _id: 'b', name: 'starred', starred: true });
  const notJoined = aChannel({ _id: 'c', name: 'elsewhere', joined: false });
  const archived = aChannel({ _id: 'd', name: 'old', archived: true, starred: true });

  it('lists joined channels, starred ones apart, never archived ones', () => {
    expect(sidebarGroups([joined, starred, notJoined, archived], undefined)).toEqual({
      starred: [starred],
      channels: [joined],
    });
  });

  it('keeps the channel being previewed in view until the reader leaves it', () => {
    expect(sidebarGroups([joined, notJoined], 'c').channels).toEqual([joined, notJoined]);
    // An archived channel stays out even while open: the page says it is archived.
    expect(sidebarGroups([archived], 'd')).toEqual({ starred: [], channels: [] });
  });
});

describe('workspaceBadge', () => {
  it('sums unread messages and mentions over the listed channels, leaving out muted, archived and unjoined ones', () => {
    const channels = [
      aChannel({ _id: 'a' }),
      aChannel({ _id: 'b' }),
      aChannel({ _id: 'c', joined: false }),
      aChannel({ _id: 'd', archived: true }),
    ];
    const badge = workspaceBadge(
      channels,
      [unread('a', 3), unread('b', 5, true), unread('c', 7), unread('d', 11)],
      [
        { channelId: 'a', count: 1 },
        { channelId: 'c', count: 4 },
      ],
    );
    expect(badge).toEqual({ unread: 3, mentions: 1 });
    expect(workspaceBadge([], [], [])).toEqual({ unread: 0, mentions: 0 });
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first two words', () => {
    expect(initialsOf('Acme design team')).toBe('AD');
    expect(initialsOf('apollo')).toBe('A');
    expect(initialsOf('  ')).toBe('?');
    expect(initialsOf('émile zola')).toBe('ÉZ');
  });
});
