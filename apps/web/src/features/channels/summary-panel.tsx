import { displayName } from '@cohort/shared/names';
import type { ChannelSummary } from '@cohort/shared/summaries';
import {
  DEFAULT_SUMMARY_TIMEFRAME,
  SUMMARY_MESSAGES,
  SUMMARY_TIMEFRAMES,
  type SummaryTimeframe,
} from '@cohort/shared/summaries.constants';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronUp, Sparkles, X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, api } from '../../lib/api.ts';

interface SummaryPanelProps {
  workspaceName: string;
  channelId: string;
  onClose: () => void;
}

export const SUMMARY_PANEL_ID = 'channel-summary-panel';

export const summaryQuery = (workspaceName: string, channelId: string, timeframe: SummaryTimeframe) =>
  queryOptions({
    queryKey: ['channel-summary', workspaceName, channelId, timeframe] as const,
    queryFn: ({ signal }) =>
      api.get<ChannelSummary>(
        `/api/workspaces/${encodeURIComponent(workspaceName)}/channels/${encodeURIComponent(channelId)}/summary?timeframe=${timeframe}`,
        signal,
      ),
    // Each opening asks again (the server caches); a failure waits for Try Again.
    staleTime: 0,
    retry: false,
  });

/** A fallback answer says why the built-in summarizer wrote it. */
const ENGINE_NOTES: Partial<Record<ChannelSummary['engine'], string>> = {
  'builtin (llm timeout)': 'The AI model took too long; this is the built-in summary.',
  'builtin (llm error)': 'The AI model was unavailable; this is the built-in summary.',
};

/**
 * The channel's conversation summary (SPEC §2 "Channel chat", §4, §8): a timeframe select (disabled
 * while loading), Generating summary…, the failure message with Try Again (Retrying… while it runs),
 * the empty answer, or the summary with its message count and participants. The summary is shown as
 * text — never as HTML — with its `- ` lines as a list. Compact (issue 19): one header row, the
 * text scrolls inside a box at most 10rem tall, and Collapse folds it to the header row so the
 * conversation keeps the space.
 */
export function SummaryPanel({ workspaceName, channelId, onClose }: SummaryPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const selectId = useId();
  const bodyId = useId();
  const [collapsed, setCollapsed] = useState(false);
  const [timeframe, setTimeframe] = useState<SummaryTimeframe>(DEFAULT_SUMMARY_TIMEFRAME);
  // SPEC §5: fetched only when both the channel id and the workspace name are there.
  const query = useQuery({
    ...summaryQuery(workspaceName, channelId, timeframe),
    enabled: Boolean(workspaceName && channelId),
  });
  const loading = query.isFetching;
  // A refetch after a failure clears the query's error, so the retry is tracked here to keep the
  // message and its button (labelled Retrying...) in place until the answer comes.
  const [retrying, setRetrying] = useState(false);
  const [lastError, setLastError] = useState<unknown>(null);
  useEffect(() => {
    if (query.isError) setLastError(query.error);
  }, [query.isError, query.error]);
  const retry = async () => {
    setRetrying(true);
    try {
      await query.refetch();
    } finally {
      setRetrying(false);
    }
  };
  const failed = query.isError || retrying;
  const error = query.error ?? lastError;

  // Opening the panel moves focus into it, so keyboard and screen-reader users land on what appeared.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section
      id={SUMMARY_PANEL_ID}
      aria-labelledby="channel-summary-heading"
      aria-busy={loading}
      className="shrink-0 border-b border-slate-200 bg-indigo-50/60 px-4 py-2 sm:px-6"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3
          id="channel-summary-heading"
          ref={headingRef}
          tabIndex={-1}
          className="flex items-center gap-2 text-sm font-semibold text-slate-900 focus:outline-none"
        >
          <Sparkles aria-hidden="true" className="size-4 text-indigo-600" />
          Channel Conversation Summary
        </h3>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={selectId} className="sr-only">
            Timeframe
          </label>
          <select
            id={selectId}
            value={timeframe}
            disabled={loading}
            onChange={(e) => setTimeframe(Number(e.target.value) as SummaryTimeframe)}
            className="rounded-md border border-slate-300 bg-white px-2 py-0.5 text-sm text-slate-900 disabled:opacity-60"
          >
            {SUMMARY_TIMEFRAMES.map((t) => (
              <option key={t.hours} value={t.hours}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          onClick={() => setCollapsed((c) => !c)}
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          className="ml-auto inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-slate-700 hover:bg-white hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          {collapsed ? (
            <ChevronDown aria-hidden="true" className="size-4" />
          ) : (
            <ChevronUp aria-hidden="true" className="size-4" />
          )}
          {collapsed ? 'Expand' : 'Collapse'}
        </button>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close summary"
          className="rounded-md p-1 text-slate-600 hover:bg-white hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>

      {/* A scrolling region: focusable so keyboard users can scroll it (axe scrollable-region-focusable). */}
      <section
        id={bodyId}
        hidden={collapsed}
        aria-label="Summary text"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="mt-2 max-h-40 overflow-y-auto pr-1 text-sm text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {loading && (
          <p role="status" className="text-slate-600 italic">
            Generating summary...
          </p>
        )}
        {failed && (
          <div role="alert" className="flex flex-wrap items-center gap-3">
            <p className="text-red-800">
              {SUMMARY_MESSAGES.fetchFailed}
              {error instanceof ApiError && error.status === 429 && (
                <span className="block text-xs text-red-700">{error.message}</span>
              )}
            </p>
            <Button variant="secondary" size="sm" disabled={retrying} onClick={retry}>
              {retrying ? 'Retrying...' : 'Try Again'}
            </Button>
          </div>
        )}
        {query.isSuccess && !loading && <SummaryBody summary={query.data} />}
      </section>
    </section>
  );
}

function SummaryBody({ summary }: { summary: ChannelSummary }) {
  if (!summary.summary) return <p className="text-slate-600">{SUMMARY_MESSAGES.empty}</p>;
  const names = summary.participants.map((p) => displayName(p));
  const note = ENGINE_NOTES[summary.engine];
  return (
    <div className="space-y-2">
      <SummaryText text={summary.summary} />
      <p className="border-t border-indigo-100 pt-2 text-xs text-slate-600">
        {summary.messageCount} {summary.messageCount === 1 ? 'message' : 'messages'} · Participants:{' '}
        {names.join(', ')}
      </p>
      {note && <p className="text-xs text-slate-600">{note}</p>}
    </div>
  );
}

/** Plain lines become paragraphs, "Title:" lines small headings, runs of "- " lines a list. */
export function SummaryText({ text }: { text: string }) {
  const blocks: ReactNode[] = [];
  let items: string[] = [];
  const flush = () => {
    if (items.length === 0) return;
    blocks.push(
      <ul key={`list-${blocks.length}`} className="list-disc space-y-0.5 pl-5">
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, never reordered
          <li key={i} className="break-words">
            {item}
          </li>
        ))}
      </ul>,
    );
    items = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) {
      items.push(line.slice(2));
      continue;
    }
    flush();
    if (!line.trim()) continue;
    const heading = /^[^\s].{0,40}:$/.test(line);
    blocks.push(
      <p key={`p-${blocks.length}`} className={heading ? 'pt-1 font-semibold text-slate-900' : 'break-words'}>
        {line}
      </p>,
    );
  }
  flush();
  return <div className="space-y-1">{blocks}</div>;
}
