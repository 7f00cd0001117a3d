import { useEffect, useRef } from 'react';

/**
 * The line above the first message that was unread when the conversation was opened. It stays while
 * the conversation is open (the mark moves on underneath it) and is gone on the next visit. When it
 * appears out of view (more unread than fits), the list scrolls up to it, so reading starts there.
 */
export function NewMessagesDivider() {
  const ref = useRef<HTMLHRElement>(null);
  useEffect(() => {
    // `nearest` moves nothing when the line is already on screen.
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    // The rule carries the name (a separator cannot hold text); the visible words repeat it.
    <li className="flex items-center gap-3 py-2 text-xs font-semibold text-red-700">
      <hr ref={ref} aria-label="New messages" className="flex-1 border-red-300" />
      <span aria-hidden="true">New messages</span>
      <span aria-hidden="true" className="h-px flex-1 bg-red-300" />
    </li>
  );
}

/**
 * The key of the first item to put the divider above: the oldest message from someone else with a
 * seq above the mark the view opened with. `undefined` while that mark is unknown, or when nothing
 * shown is unread.
 */
export function firstUnreadKey<T extends { key: string }>(
  items: readonly T[],
  openedMark: number | null | undefined,
  unreadSeq: (item: T) => number | null,
): string | undefined {
  if (openedMark === null || openedMark === undefined) return undefined;
  return items.find((item) => {
    const seq = unreadSeq(item);
    return seq !== null && seq > openedMark;
  })?.key;
}
