import { z } from 'zod';
import { text } from './text.ts';

/**
 * Search (GET /api/search): the query syntax, parsed the same way on both sides so the web can show
 * the filters as chips and the server can build its SQL from them, and the grouped results.
 *
 * Syntax: free words (every word must match; the last one also matches as a prefix), and filters
 * `in:#channel` (or `in:channel`), `from:someone` (e-mail, name, or `me`), `after:YYYY-MM-DD`,
 * `before:YYYY-MM-DD`, `during:YYYY-MM-DD`. Dates are whole UTC days: `after:` starts the day after,
 * `before:` ends the day before, `during:` is that day.
 */

export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
/** Channels, tasks and people found per search (first page only). */
export const SEARCH_GROUP_LIMIT = 8;

export const SEARCH_MESSAGES = {
  queryRequired: 'Type something to search for',
  queryTooLong: `Search is too long (${SEARCH_QUERY_MAX_LENGTH} characters at most)`,
  invalidDate: 'Dates in after:, before: and during: are written YYYY-MM-DD',
  emptyFilter: 'A filter needs a value, like in:general or from:ada@example.com',
  invalidCursor: 'Invalid cursor',
} as const;

export const SEARCH_FILTERS = ['in', 'from', 'after', 'before', 'during'] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

export interface ParsedSearch {
  /** Free words, in order, as typed (without the filters). */
  words: string[];
  /** A channel name, without the leading '#'. */
  in?: string;
  /** An e-mail, a name, or `me`. */
  from?: string;
  /** YYYY-MM-DD. */
  after?: string;
  before?: string;
  during?: string;
}

export type SearchParse = { ok: true; query: ParsedSearch } | { ok: false; message: string };

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD, from year 1 (PostgreSQL has no year 0). */
export function isSearchDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m || m[1] === '0000') return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Splits a query into free words and filters; a filter written twice keeps its last value. */
export function parseSearchQuery(input: string): SearchParse {
  const query: ParsedSearch = { words: [] };
  for (const token of input.trim().split(/\s+/)) {
    if (!token) continue;
    const m = /^([a-z]+):(.*)$/i.exec(token);
    const name = m?.[1]?.toLowerCase();
    if (!m || !SEARCH_FILTERS.includes(name as SearchFilter)) {
      query.words.push(token);
      continue;
    }
    let value = m[2] ?? '';
    if (name === 'in') value = value.replace(/^#/, '');
    if (!value) return { ok: false, message: SEARCH_MESSAGES.emptyFilter };
    if ((name === 'after' || name === 'before' || name === 'during') && !isSearchDate(value)) {
      return { ok: false, message: SEARCH_MESSAGES.invalidDate };
    }
    query[name as SearchFilter] = value;
  }
  return { ok: true, query };
}

/** The query written back as text (chips removed one by one rebuild it with this). */
export function formatSearchQuery(query: ParsedSearch): string {
  const parts = [...query.words];
  if (query.in) parts.push(`in:#${query.in}`);
  for (const name of ['from', 'after', 'before', 'during'] as const) {
    const value = query[name];
    if (value) parts.push(`${name}:${value}`);
  }
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------------
// Request

export const searchQuery = z
  .object({
    // Checked below as one sentence each (a custom issue), not as "q: …".
    q: text().trim().default(''),
    limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_DEFAULT_LIMIT),
    /** From the previous page's `nextCursor`. */
    cursor: z.string().max(200).optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['q'] });
    if (!v.q) return issue(SEARCH_MESSAGES.queryRequired);
    if (v.q.length > SEARCH_QUERY_MAX_LENGTH) return issue(SEARCH_MESSAGES.queryTooLong);
    const parsed = parseSearchQuery(v.q);
    if (!parsed.ok) issue(parsed.message);
  });
export type SearchQuery = z.input<typeof searchQuery>;

// ---------------------------------------------------------------------------------------------------
// Response

/** A piece of highlighted text: `match` pieces are the words that matched. Plain text, never HTML. */
export const textSegment = z.object({ text: z.string(), match: z.boolean() });
export type TextSegment = z.infer<typeof textSegment>;

const person = z.object({ _id: z.string(), email: z.string(), name: z.string() });

export const channelMessageHit = z.object({
  kind: z.literal('channel'),
  _id: z.string(),
  seq: z.number().int(),
  timestamp: z.string(),
  sender: person,
  snippet: z.array(textSegment),
  /** Thread replies name their parent. */
  parentId: z.string().nullable(),
  channel: z.object({ _id: z.string(), name: z.string(), private: z.boolean() }),
  workspace: z.object({ _id: z.string(), name: z.string() }),
});

export const directMessageHit = z.object({
  kind: z.literal('direct'),
  _id: z.string(),
  seq: z.number().int(),
  timestamp: z.string(),
  sender: person,
  snippet: z.array(textSegment),
  /** The other person of the conversation. */
  with: person,
});

export const messageHit = z.discriminatedUnion('kind', [channelMessageHit, directMessageHit]);
export type MessageHit = z.infer<typeof messageHit>;

export const channelHit = z.object({
  _id: z.string(),
  name: z.array(textSegment),
  description: z.array(textSegment),
  private: z.boolean(),
  workspace: z.object({ _id: z.string(), name: z.string() }),
});
export type ChannelHit = z.infer<typeof channelHit>;

export const taskHit = z.object({
  _id: z.string(),
  title: z.array(textSegment),
  /** The list's name for its owner; null for an assignee, who never sees the owner's list names. */
  listTitle: z.string().nullable(),
  archived: z.boolean(),
});
export type TaskHit = z.infer<typeof taskHit>;

export const personHit = z.object({
  _id: z.string(),
  name: z.array(textSegment),
  email: z.array(textSegment),
});
export type PersonHit = z.infer<typeof personHit>;

export const searchResults = z.object({
  query: z.object({
    words: z.array(z.string()),
    in: z.string().optional(),
    from: z.string().optional(),
    after: z.string().optional(),
    before: z.string().optional(),
    during: z.string().optional(),
  }),
  messages: z.array(messageHit),
  /** Pass as `cursor` for the next page of messages; null when there is none. */
  nextCursor: z.string().nullable(),
  /** First page only (empty on later pages and when the query has no words). */
  channels: z.array(channelHit),
  tasks: z.array(taskHit),
  people: z.array(personHit),
});
export type SearchResults = z.infer<typeof searchResults>;

/**
 * Marks every case-insensitive occurrence of `words` in `text` (for short fields: names, titles).
 * Messages are highlighted by the database (ts_headline) instead.
 */
export function highlightWords(text: string, words: readonly string[]): TextSegment[] {
  const needles = words.map((w) => w.toLowerCase()).filter(Boolean);
  const lower = text.toLowerCase();
  const segments: TextSegment[] = [];
  let plainFrom = 0;
  let i = 0;
  while (i < text.length) {
    let best = 0;
    for (const n of needles) if (n.length > best && lower.startsWith(n, i)) best = n.length;
    if (best === 0) {
      i += 1;
      continue;
    }
    if (i > plainFrom) segments.push({ text: text.slice(plainFrom, i), match: false });
    segments.push({ text: text.slice(i, i + best), match: true });
    i += best;
    plainFrom = i;
  }
  if (plainFrom < text.length) segments.push({ text: text.slice(plainFrom), match: false });
  return segments;
}
