import { z } from 'zod';
import {
  DEFAULT_SUMMARY_TIMEFRAME,
  SUMMARIZE_MAX_BYTES,
  SUMMARIZE_MAX_MESSAGES,
  SUMMARY_MESSAGES,
  SUMMARY_TIMEFRAMES,
  type SummaryTimeframe,
} from './summaries.constants.ts';
import { text } from './text.ts';

export * from './summaries.constants.ts';

/**
 * Channel summaries (SPEC §2 "Channel chat" summary panel, §7 summary and summarize): the timeframe
 * options, the request and response shapes of `GET …/channels/{channelId}/summary` and
 * `POST /api/summarize`, and the messages both sides show.
 */

// ---------------------------------------------------------------------------------------------------
// Constants

// ---------------------------------------------------------------------------------------------------
// Requests

const timeframeValues = SUMMARY_TIMEFRAMES.map((t) => String(t.hours)) as [string, ...string[]];

/** `?timeframe=` in hours; missing means 24; anything but the five options is a 400. */
export const summaryQuery = z.object({
  timeframe: z
    .enum(timeframeValues, { error: SUMMARY_MESSAGES.invalidTimeframe })
    .default(String(DEFAULT_SUMMARY_TIMEFRAME))
    .transform((v) => Number(v) as SummaryTimeframe),
});
export type SummaryQuery = z.input<typeof summaryQuery>;

export const summarizeMessageInput = z.object({
  /** A name or an e-mail, as the caller knows the sender; cited as given. */
  sender: z.string().trim().min(1, 'sender is required').max(320),
  content: text().max(100_000),
  /** An ISO date (or anything `Date` parses, or epoch milliseconds); optional, order is kept. */
  timestamp: z
    .union([z.string().max(64), z.number()])
    .optional()
    .refine(
      (v) => v === undefined || !Number.isNaN(new Date(v).getTime()),
      SUMMARY_MESSAGES.invalidTimestamp,
    ),
});
export type SummarizeMessageInput = z.input<typeof summarizeMessageInput>;

/** UTF-8 size of the JSON of `value` (shared code runs in browsers and Node: no Buffer here). */
function utf8Length(value: unknown): number {
  let bytes = 0;
  for (const ch of JSON.stringify(value)) {
    const code = ch.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

export const summarizeBody = z
  .object({
    messages: z.array(summarizeMessageInput).max(SUMMARIZE_MAX_MESSAGES, SUMMARY_MESSAGES.tooManyMessages),
  })
  .superRefine((value, ctx) => {
    if (utf8Length(value.messages) > SUMMARIZE_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: SUMMARY_MESSAGES.tooLarge, path: ['messages'] });
    }
  });
export type SummarizeBody = z.input<typeof summarizeBody>;

// ---------------------------------------------------------------------------------------------------
// Responses

export const summaryParticipant = z.object({ _id: z.string(), email: z.string(), name: z.string() });
export type SummaryParticipant = z.infer<typeof summaryParticipant>;

/**
 * `engine` says who wrote the summary: `builtin` (the extractive summarizer), `llm` (the configured
 * OpenAI-compatible model), or `builtin (llm timeout)` / `builtin (llm error)` when the model did not
 * answer in time or failed and the built-in summarizer answered instead.
 */
export const SUMMARY_ENGINES = ['builtin', 'llm', 'builtin (llm timeout)', 'builtin (llm error)'] as const;
export type SummaryEngineName = (typeof SUMMARY_ENGINES)[number];

/** `summary` is `''` when the window holds no messages (the panel then says so). */
export const channelSummary = z.object({
  summary: z.string(),
  messageCount: z.number().int(),
  participants: z.array(summaryParticipant),
  /** The window: `to` is the time of the request, `from` is `timeframe` hours before it. */
  from: z.string(),
  to: z.string(),
  timeframe: z.number().int(),
  engine: z.enum(SUMMARY_ENGINES),
});
export type ChannelSummary = z.infer<typeof channelSummary>;

/** POST /api/summarize: participants are the senders as given; from/to the first and last timestamps. */
export const summarizeResponse = z.object({
  summary: z.string(),
  messageCount: z.number().int(),
  participants: z.array(z.string()),
  from: z.string().nullable(),
  to: z.string().nullable(),
  engine: z.enum(SUMMARY_ENGINES),
});
export type SummarizeResponse = z.infer<typeof summarizeResponse>;
