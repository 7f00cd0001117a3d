import { startTransition, useEffect, useState } from 'react';

/**
 * The first screen's content before the page's extras (issue 19). When the first page loaded is a
 * conversation (a channel, a direct chat) or the task board, the navbar's counters and bell, the
 * session's background connections (presence, calls), the toaster and the
 * footer wait until that content has rendered (`markContentShown`), at most CONTENT_WAIT_MS: on a phone
 * they otherwise download, fetch and render in front of it. Any other first page does not wait, and
 * once shown stays shown (later navigations never wait).
 */
const CONTENT_WAIT_MS = 3000;

function waitsForContent(location: Location): boolean {
  const path = location.pathname;
  if (/^\/workspace\/[^/]+\/channel\/[^/]+\/?$/.test(path) || /^\/task(\/|$)/.test(path)) return true;
  return /^\/(chat|livechat)\/?$/.test(path) && new URLSearchParams(location.search).has('with');
}

let shown = typeof window === 'undefined' || !waitsForContent(window.location);
const listeners = new Set<() => void>();

/** The page's main content is on screen: the extras may load now. */
export function markContentShown(): void {
  if (shown) return;
  shown = true;
  for (const listener of listeners) listener();
  listeners.clear();
}

if (!shown) setTimeout(markContentShown, CONTENT_WAIT_MS);

/**
 * True once the first page's content has rendered (or it need not wait, or waited long enough). The
 * switch re-renders as a transition: what appears then (the navbar's extras, the reads' results)
 * renders in slices that yield to the browser, not in one long task.
 */
export function useContentShown(): boolean {
  const [value, setValue] = useState(shown);
  useEffect(() => {
    if (value) return;
    const show = () => startTransition(() => setValue(true));
    if (shown) {
      show();
      return;
    }
    listeners.add(show);
    return () => {
      listeners.delete(show);
    };
  }, [value]);
  return value;
}
