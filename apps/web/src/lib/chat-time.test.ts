import { describe, expect, it } from 'vitest';
import { dateFormat, dateTimeLabel, dayKey, dayLabel, groupByDay, timeLabel } from './chat-time.ts';

const now = new Date(2025, 2, 31, 10, 0); // 31 March 2025, local time

describe('dayLabel', () => {
  it('says Today for any time of the current day', () => {
    expect(dayLabel(new Date(2025, 2, 31, 0, 0), now)).toBe('Today');
    expect(dayLabel(new Date(2025, 2, 31, 23, 59), now)).toBe('Today');
  });

  it('says Yesterday for the calendar day before, across a month boundary too', () => {
    expect(dayLabel(new Date(2025, 2, 30, 23, 59), now)).toBe('Yesterday');
    expect(dayLabel(new Date(2025, 3, 1, 8), new Date(2025, 3, 2, 9))).toBe('Yesterday');
    expect(dayLabel(new Date(2025, 2, 31, 8), new Date(2025, 3, 1, 0, 5))).toBe('Yesterday');
  });

  it('gives the locale date for anything older', () => {
    const older = new Date(2025, 2, 29, 12);
    expect(dayLabel(older, now)).toBe(older.toLocaleDateString());
  });
});

describe('timeLabel', () => {
  it('shows hours and minutes only', () => {
    const label = timeLabel(new Date(2025, 2, 31, 9, 5, 42));
    expect(label).toMatch(/09.05|9.05/);
    expect(label).not.toContain('42');
  });
});

describe('groupByDay', () => {
  it('starts a new group at each calendar day, labelled for its separator', () => {
    const items = [
      new Date(2025, 2, 29, 9),
      new Date(2025, 2, 30, 9),
      new Date(2025, 2, 30, 18),
      new Date(2025, 2, 31, 7),
    ];
    const groups = groupByDay(items, (d) => d, now);
    expect(groups.map((g) => [g.label, g.items.length])).toEqual([
      [items[0]?.toLocaleDateString(), 1],
      ['Yesterday', 2],
      ['Today', 1],
    ]);
    expect(groups[2]?.key).toBe(dayKey(now));
  });
});

describe('dateFormat', () => {
  it('builds one formatter per set of options and shares it (building one is slow on a phone)', () => {
    const a = dateFormat({ dateStyle: 'medium', timeStyle: 'short' });
    expect(dateFormat({ dateStyle: 'medium', timeStyle: 'short' })).toBe(a);
    expect(dateFormat({ dateStyle: 'medium' })).not.toBe(a);
    const at = new Date(2025, 2, 31, 9, 41);
    expect(dateTimeLabel(at)).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at),
    );
  });
});
