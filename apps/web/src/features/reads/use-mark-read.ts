import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';

/** Marks move at most this often while messages stream in (one request per burst). */
export const MARK_READ_DELAY_MS = 400;

const subscribeVisibility = (notify: () => void) => {
  document.addEventListener('visibilitychange', notify);
  return () => document.removeEventListener('visibilitychange', notify);
};

/** Whether the page is on screen: a message in a hidden tab has not been seen. */
export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribeVisibility, () => document.visibilityState !== 'hidden');
}

/**
 * Moves a conversation's read mark to `newestSeq` (the newest message shown) while the page is
 * visible: once per MARK_READ_DELAY_MS at most, never to a seq at or below `markedSeq` (what the
 * server already has, from any tab) or below one already sent, and once more on leaving if a move is
 * still pending. `enabled` holds it back until the view knows where the mark was (the divider).
 */
export function useMarkRead(opts: {
  enabled: boolean;
  newestSeq: number | undefined;
  markedSeq: number | undefined;
  mark: (seq: number) => Promise<unknown>;
}) {
  const { enabled, newestSeq, markedSeq } = opts;
  const visible = usePageVisible();
  const markRef = useRef(opts.mark);
  markRef.current = opts.mark;
  const sent = useRef(0);
  const latest = useRef<number | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(() => {
    timer.current = null;
    const seq = latest.current;
    if (seq === undefined || seq <= sent.current) return;
    const before = sent.current;
    sent.current = seq;
    markRef.current(seq).catch(() => {
      // Try again with the next message (or the next visit); the count is only a hint meanwhile.
      if (sent.current === seq) sent.current = before;
    });
  }, []);

  useEffect(() => {
    if (!enabled || !visible || newestSeq === undefined) return;
    if (newestSeq <= Math.max(sent.current, markedSeq ?? -1)) return;
    latest.current = newestSeq;
    if (timer.current === null) timer.current = setTimeout(flush, MARK_READ_DELAY_MS);
  }, [enabled, visible, newestSeq, markedSeq, flush]);

  // A pending move goes out at once when the view closes, or the page is left or reloaded (React
  // does not unmount on unload; the request is sent with keepalive to outlive the page).
  useEffect(() => {
    const flushNow = () => {
      if (timer.current === null) return;
      clearTimeout(timer.current);
      flush();
    };
    window.addEventListener('pagehide', flushNow);
    return () => {
      window.removeEventListener('pagehide', flushNow);
      flushNow();
    };
  }, [flush]);
}

/**
 * The read mark a conversation was opened with, fixed for as long as the view stays open: the
 * "New messages" line goes above the first message after it. `undefined` until both the mark and the
 * first page of messages are known; `null` when nothing was unread then (messages arriving while the
 * reader looks on are not "new" to them).
 */
export function useOpenedMark(opts: {
  /** The read state has loaded (or failed to: then there is no line). */
  settled: boolean;
  lastReadSeq: number | undefined;
  /** The first page of messages is shown. */
  ready: boolean;
  newestSeq: number | undefined;
}): number | null | undefined {
  const { settled, lastReadSeq, ready, newestSeq } = opts;
  const [mark, setMark] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    if (mark !== undefined || !settled || !ready) return;
    setMark(lastReadSeq !== undefined && lastReadSeq < (newestSeq ?? 0) ? lastReadSeq : null);
  }, [mark, settled, lastReadSeq, ready, newestSeq]);
  return mark;
}
