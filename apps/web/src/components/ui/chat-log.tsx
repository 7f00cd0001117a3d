import { ArrowDown } from 'lucide-react';
import { type ReactNode, useDeferredValue, useEffect } from 'react';
import { groupByDay, warmTimeLabels } from '../../lib/chat-time.ts';
import { markContentShown } from '../../lib/first-content.ts';
import { useStickToBottom } from '../../lib/use-stick-to-bottom.ts';
import { Button } from './button.tsx';

export interface ChatLogItem {
  /** Stable across the switch from pending to stored (use the clientId), so rows are not re-created. */
  key: string;
  date: Date;
  /** The reader's own message. */
  own: boolean;
  /** Just sent from here (still in the outbox): always scrolled into view when it appears. */
  sending?: boolean;
}

interface ChatLogProps<T extends ChatLogItem> {
  label: string;
  items: T[];
  renderItem: (item: T, previous: T | undefined) => ReactNode;
  status: 'loading' | 'ready' | 'error';
  emptyText: string;
  onReload: () => void;
  hasOlder?: boolean;
  loadingOlder?: boolean;
  onLoadOlder?: () => void;
  /** The element id of an item to open at instead of the newest (a search hit). */
  anchorId?: string | undefined;
}

const NO_ITEMS: ChatLogItem[] = [];

/**
 * A conversation's message list: a live log (role="log", announced politely) grouped under day
 * separators (Today, Yesterday, the locale date), kept at the newest message unless the reader has
 * scrolled up (then a "New messages" pill), loading older history when the reader reaches the top.
 */
export function ChatLog<T extends ChatLogItem>({
  label,
  items,
  renderItem,
  status,
  emptyText,
  onReload,
  hasOlder = false,
  loadingOlder = false,
  onLoadOlder,
  anchorId,
}: ChatLogProps<T>) {
  // A page of history (and each later change) renders in the background, a few milliseconds at a
  // time, instead of in one task that holds the main thread (a phone's blocking time, issue 19); the
  // DOM catches up within a frame or two.
  const shown = useDeferredValue(items, NO_ITEMS as T[]);
  useEffect(() => warmTimeLabels(), []);
  // The conversation is on screen (its messages, or that there are none): the page's extras may load.
  const rendered = shown.length > 0 || (status !== 'loading' && items.length === 0);
  useEffect(() => {
    if (rendered) markContentShown();
  }, [rendered]);
  const last = shown.at(-1);
  const scroll = useStickToBottom<HTMLDivElement>({
    firstKey: shown[0]?.key,
    lastKey: last?.key,
    lastJustSent: last?.sending === true,
    onReachTop: hasOlder && !loadingOlder ? onLoadOlder : undefined,
    anchorId,
  });
  const groups = groupByDay(shown, (item) => item.date);

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroll.ref}
        onScroll={scroll.onScroll}
        role="log"
        aria-live="polite"
        aria-label={label}
        aria-busy={status === 'loading' || loadingOlder}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it (WCAG 2.1.1).
        tabIndex={0}
        className="h-full overflow-y-auto px-4 pb-2 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 sm:px-6"
      >
        {hasOlder && onLoadOlder && (
          <div className="flex justify-center pt-3">
            <Button variant="ghost" size="sm" onClick={onLoadOlder} disabled={loadingOlder}>
              {loadingOlder ? 'Loading older messages...' : 'Load older messages'}
            </Button>
          </div>
        )}
        {status === 'loading' && items.length === 0 && (
          <p className="py-12 text-center text-sm text-slate-600">Loading messages...</p>
        )}
        {status === 'error' && (
          <div className="py-12 text-center text-sm text-slate-700">
            <p>The messages could not be loaded.</p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={onReload}>
              Try again
            </Button>
          </div>
        )}
        {status === 'ready' && items.length === 0 && (
          <p className="py-12 text-center text-sm text-slate-600">{emptyText}</p>
        )}
        {groups.map((group) => (
          <div key={group.key}>
            {/* In the flow, not sticky: a divider pinned over the list covered the message under it. */}
            <h3 className="flex items-center gap-3 py-2 text-xs font-semibold text-slate-600 dark:text-slate-400">
              <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
              {group.label}
              <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
            </h3>
            <ol className="space-y-1.5 pb-2">
              {group.items.map((item, index) => renderItem(item, group.items[index - 1]))}
            </ol>
          </div>
        ))}
      </div>
      {scroll.hasNew && (
        <button
          type="button"
          onClick={() => scroll.scrollToBottom()}
          className="absolute bottom-3 left-1/2 z-20 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-indigo-600 px-3.5 py-1.5 text-sm font-semibold text-white shadow-lg hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <ArrowDown aria-hidden="true" className="size-4" />
          New messages
        </button>
      )}
    </div>
  );
}

/** The line that says the connection is down; always in the page so its changes are announced. */
export function ConnectionStatus({ message }: { message: string | null }) {
  return (
    <p
      role="status"
      className={
        message
          ? 'border-b border-amber-200 bg-amber-50 px-6 py-1.5 text-sm font-medium text-amber-900'
          : 'sr-only'
      }
    >
      {message}
    </p>
  );
}
