/** Date and time wording shared by the channel and direct chats (SPEC §2 "Channel chat"). */

/** The local calendar day of a moment, as a key that sorts and compares. */
export function dayKey(date: Date): string {
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${m}-${d}`;
}

/** "Today", "Yesterday", or the locale's date: the separator above each day's first message. */
export function dayLabel(date: Date, now: Date = new Date()): string {
  if (dayKey(date) === dayKey(now)) return 'Today';
  // Calendar arithmetic, not "minus 24 hours": days around a DST change are 23 or 25 hours long.
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (dayKey(date) === dayKey(yesterday)) return 'Yesterday';
  return date.toLocaleDateString();
}

let timeFormat: Intl.DateTimeFormat | undefined;

/** Hour and minute in the reader's locale (e.g. "09:41" or "9:41 AM"). */
export function timeLabel(date: Date): string {
  // One formatter for every message: `toLocaleTimeString` with options builds a new one per call,
  // the largest cost of rendering a channel's first page on a phone (issue 19).
  timeFormat ??= new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
  return timeFormat.format(date);
}

export type DayGroup<T> = { key: string; label: string; items: T[] };

/** Splits a time-ordered list into calendar days, each labelled for its separator. */
export function groupByDay<T>(items: T[], dateOf: (item: T) => Date, now: Date = new Date()): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const date = dateOf(item);
    const key = dayKey(date);
    const last = groups.at(-1);
    if (last && last.key === key) last.items.push(item);
    else groups.push({ key, label: dayLabel(date, now), items: [item] });
  }
  return groups;
}
