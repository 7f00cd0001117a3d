// What summaries.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). summaries.ts re-exports all of it.

/** The spec's timeframe options in hours, with their labels as the select shows them. */
export const SUMMARY_TIMEFRAMES = [
  { hours: 6, label: 'Last 6 hours' },
  { hours: 12, label: 'Last 12 hours' },
  { hours: 24, label: 'Last 24 hours' },
  { hours: 48, label: 'Last 2 days' },
  { hours: 168, label: 'Last week' },
] as const;

export type SummaryTimeframe = (typeof SUMMARY_TIMEFRAMES)[number]['hours'];

export const DEFAULT_SUMMARY_TIMEFRAME: SummaryTimeframe = 24;

/** POST /api/summarize limits: more is a 400. */
export const SUMMARIZE_MAX_MESSAGES = 2000;

export const SUMMARIZE_MAX_BYTES = 500 * 1024;

/** Both summary routes together: at most this many requests per user per window (then 429). */
export const SUMMARY_RATE_LIMIT = 10;

export const SUMMARY_RATE_WINDOW_MS = 60_000;

export const SUMMARY_MESSAGES = {
  invalidTimeframe: 'Timeframe must be 6, 12, 24, 48 or 168 hours',
  tooManyMessages: `At most ${SUMMARIZE_MAX_MESSAGES} messages can be summarized at once`,
  tooLarge: `The messages are too large to summarize (${SUMMARIZE_MAX_BYTES / 1024} KB at most)`,
  invalidTimestamp: 'timestamp must be a date',
  rateLimited: `Too many summary requests (${SUMMARY_RATE_LIMIT} per minute at most). Please wait a minute and try again.`,
  // What the panel shows (SPEC §8).
  fetchFailed: 'Failed to fetch summary. Please try again.',
  empty: 'No recent conversation to summarize',
} as const;
