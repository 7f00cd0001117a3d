import { displayName } from '@cohort/shared/names';
import type {
  ChannelSummary,
  SummarizeBody,
  SummarizeResponse,
  SummaryParticipant,
  SummaryTimeframe,
} from '@cohort/shared/summaries';
import type { AppContext } from '../../context.ts';
import { channelWindow, channelWindowMessages, type WindowMessage } from '../chat/chat.access.ts';
import type { ConversationMessage } from './engine/builtin.ts';
import type { Summarizer, SummaryResult } from './summaries.engine.ts';

const HOUR_MS = 3_600_000;
/** A window holding more is summarized from its newest this many messages (messageCount stays exact). */
export const MAX_WINDOW_MESSAGES = 10_000;
const CACHE_ENTRIES = 500;

interface Cached extends SummaryResult {
  participants: SummaryParticipant[];
}

/**
 * The names the summary cites, one per sender; two senders with the same name are told apart by
 * their e-mails. Only senders of the window are named.
 */
function citedNames(messages: WindowMessage[]): Map<string, string> {
  const byId = new Map<string, WindowMessage['sender']>();
  for (const m of messages) byId.set(m.sender.id, m.sender);
  const base = new Map([...byId].map(([id, s]) => [id, displayName(s)]));
  const uses = new Map<string, number>();
  for (const name of base.values()) uses.set(name, (uses.get(name) ?? 0) + 1);
  return new Map(
    [...base].map(([id, name]) => [
      id,
      (uses.get(name) ?? 0) > 1 ? `${name} (${byId.get(id)?.email})` : name,
    ]),
  );
}

/**
 * Channel summaries with a cache: the key is (channel, timeframe, first seq, last seq, highest rev) of
 * the window. Seqs are gapless and only grow, and any change to a message gives it a new highest rev,
 * so an equal key means the very same messages: a summary is recomputed only when a message arrives,
 * changes, or the oldest one slides out of the window as time passes — never just because the clock
 * moved. The cache is per node (a bounded LRU); nodes that
 * miss recompute the same deterministic text, a cheap price for no shared state.
 */
export class SummariesService {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly ctx: AppContext,
    private readonly summarize: Summarizer,
  ) {}

  async channelSummary(channelId: string, timeframe: SummaryTimeframe): Promise<ChannelSummary> {
    const to = this.ctx.now();
    const from = new Date(to.getTime() - timeframe * HOUR_MS);
    const window = await channelWindow(this.ctx, channelId, from, to);
    const base = { messageCount: window.count, from: from.toISOString(), to: to.toISOString(), timeframe };
    if (window.count === 0) return { ...base, summary: '', participants: [], engine: 'builtin' };

    const key = `${channelId}:${timeframe}:${window.firstSeq}:${window.lastSeq}:${window.maxRev}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Re-inserting keeps the Map in least-recently-used order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return { ...base, ...hit };
    }

    const rows = await channelWindowMessages(this.ctx, channelId, from, to, MAX_WINDOW_MESSAGES);
    const names = citedNames(rows);
    const result = await this.summarize(
      rows.map((m) => ({
        sender: names.get(m.sender.id) ?? '',
        content: m.content,
        at: m.createdAt.getTime(),
      })),
    );
    const participants = [...new Map(rows.map((m) => [m.sender.id, m.sender])).values()].map((s) => ({
      _id: s.id,
      email: s.email,
      name: displayName(s),
    }));
    const entry: Cached = { ...result, participants };
    // A fallback answer is not kept: the next request gives the model another chance.
    if (result.engine === 'builtin' || result.engine === 'llm') {
      this.cache.set(key, entry);
      if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    }
    return { ...base, ...entry };
  }

  /** POST /api/summarize: the caller's own messages, summarized as given (no cache: nothing to key on). */
  async summarizeMessages(body: SummarizeBody): Promise<SummarizeResponse> {
    const messages: ConversationMessage[] = body.messages.map((m) => ({
      sender: m.sender.trim(),
      content: m.content,
      at: m.timestamp === undefined ? undefined : new Date(m.timestamp).getTime(),
    }));
    const times = messages.map((m) => m.at).filter((at): at is number => at !== undefined);
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    const participants = [...new Set(messages.map((m) => m.sender))];
    if (messages.length === 0) {
      return { summary: '', messageCount: 0, participants, from: null, to: null, engine: 'builtin' };
    }
    const result = await this.summarize(messages);
    return {
      ...result,
      messageCount: messages.length,
      participants,
      from: iso(times.length ? Math.min(...times) : undefined),
      to: iso(times.length ? Math.max(...times) : undefined),
    };
  }
}
