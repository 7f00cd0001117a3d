import { Sparkles, X } from 'lucide-react';
import { useEffect, useRef } from 'react';

interface SummaryPanelProps {
  workspaceName: string;
  channelId: string;
  onClose: () => void;
}

export const SUMMARY_PANEL_ID = 'channel-summary-panel';

/**
 * The channel's conversation summary (SPEC §2 "Channel chat", summary panel). A placeholder until the
 * summaries capability lands: that work fills this component (timeframe select, loading, errors) and
 * keeps its props (`workspaceName` and `channelId` select what to summarize), so the channel view does
 * not change.
 */
export function SummaryPanel({ onClose }: SummaryPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opening the panel moves focus into it, so keyboard and screen-reader users land on what appeared.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section
      id={SUMMARY_PANEL_ID}
      aria-labelledby="channel-summary-heading"
      className="border-b border-slate-200 bg-indigo-50/60 px-6 py-4"
    >
      <div className="flex items-start justify-between gap-3">
        <h3
          id="channel-summary-heading"
          ref={headingRef}
          tabIndex={-1}
          className="flex items-center gap-2 text-base font-semibold text-slate-900 focus:outline-none"
        >
          <Sparkles aria-hidden="true" className="size-4 text-indigo-600" />
          Channel Conversation Summary
        </h3>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close summary"
          className="rounded-md p-1 text-slate-600 hover:bg-white hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
      <p className="mt-2 text-sm text-slate-700">Summary coming soon.</p>
    </section>
  );
}
