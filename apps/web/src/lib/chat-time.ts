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

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The reader's locale formatter for these options, built on first use and then shared: building one
 * costs tens of milliseconds on a phone (`toLocale…String` with options builds one per call), so a
 * module never builds one when it loads, only when it has a date to show (issue 19).
 */
export function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, options);
    formats.set(key, format);
  }
  return format;
}

/** Hour and minute in the reader's locale (e.g. "09:41" or "9:41 AM"). */
export function timeLabel(date: Date): string {
  return dateFormat({ hour: '2-digit', minute: '2-digit' }).format(date);
}

/**
 * Builds the time formatter in a task of its own, so a conversation's first render does not pay for it
 * (the first Intl formatter of a page loads the locale's data: 15–45 ms on a phone, in one piece).
 * Returns a cancel function.
 */
export function warmTimeLabels(): () => void {
  const timer = setTimeout(() => timeLabel(new Date()), 0);
  return () => clearTimeout(timer);
}

/** Date and time, e.g. "26 Nov 2026, 11:40" (notifications, sessions, invitations). */
export function dateTimeLabel(date: Date): string {
  return dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(date);
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
