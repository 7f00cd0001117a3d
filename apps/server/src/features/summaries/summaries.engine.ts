import type { SummaryEngineName } from '@cohort/shared/summaries';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { type ConversationMessage, summarizeConversation } from './engine/builtin.ts';
import { createLlmSummarizer, LlmTimeoutError } from './summaries.llm.ts';

export interface SummaryResult {
  summary: string;
  engine: SummaryEngineName;
}

/** Writes the summary of a conversation (oldest message first); never rejects. */
export type Summarizer = (messages: readonly ConversationMessage[]) => Promise<SummaryResult>;

export const builtinSummarizer: Summarizer = async (messages) => ({
  summary: summarizeConversation(messages),
  engine: 'builtin',
});

/**
 * The built-in summarizer, or — with OPENAI_BASE_URL set — the model, with the built-in one
 * answering when the model times out (`builtin (llm timeout)`) or fails (`builtin (llm error)`).
 */
export function createSummarizer(config: Config, log: FastifyBaseLogger): Summarizer {
  if (!config.OPENAI_BASE_URL) return builtinSummarizer;
  const llm = createLlmSummarizer({
    baseURL: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.SUMMARY_MODEL,
    timeoutMs: config.SUMMARY_LLM_TIMEOUT_MS,
    contextChars: config.SUMMARY_CONTEXT_CHARS,
  });
  return async (messages) => {
    if (messages.length === 0) return { summary: '', engine: 'llm' };
    try {
      return { summary: await llm(messages), engine: 'llm' };
    } catch (error) {
      const timedOut = error instanceof LlmTimeoutError;
      log.warn({ err: error }, timedOut ? 'summary model timed out' : 'summary model failed');
      return {
        summary: summarizeConversation(messages),
        engine: timedOut ? 'builtin (llm timeout)' : 'builtin (llm error)',
      };
    }
  };
}
