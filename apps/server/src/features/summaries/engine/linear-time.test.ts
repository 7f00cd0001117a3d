import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeConversation, type ConversationMessage, renderSummary } from './builtin.ts';
import { StepBudgetExceeded, stepMeter } from './text.ts';

/**
 * Issue 17: the summarizer reads whatever anyone wrote in a channel, so its work must stay linear in
 * the window it summarizes. The analysis counts its passes and loop rounds in a StepMeter; here it
 * must finish within a budget proportional to characters plus messages, on generated hostile text.
 * Three things were quadratic before: `私が.+ます` on a run of 私が, `[.,…]+$` on a URL followed by a
 * run of dots, and looking for the answer to every question through all later messages of its asker.
 */
const STEPS_PER_UNIT = 120;
const MESSAGE_MAX = 4000;

const budgetFor = (messages: ConversationMessage[]) =>
  STEPS_PER_UNIT * (messages.reduce((sum, m) => sum + m.content.length, 0) + messages.length + 1);

const piece = fc.constantFrom(
  '私が',
  'ます',
  '我来',
  '决定',
  '。',
  '@ann ',
  '@bob please ',
  'please ',
  'https://x.example/',
  'https://y.example/a',
  ').',
  '...',
  '.',
  ')',
  ']',
  '```',
  '```ts\n',
  '\n',
  '?',
  '? ',
  '¿',
  ' ',
  'we decided ',
  "let's go with ",
  'TODO ',
  'can you ',
  "i'll ",
  "'",
  'deploy ',
  'billing ',
  'release ',
  'yes ',
  '👍',
  'a',
  '@',
  '-',
);

const content = fc.oneof(
  fc.array(piece, { maxLength: 1000, size: 'max' }).map((parts) => parts.join('').slice(0, MESSAGE_MAX)),
  fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: MESSAGE_MAX }))
    .map(([parts, times]) => {
      const unit = parts.join('');
      return unit.repeat(Math.min(times, Math.floor(MESSAGE_MAX / unit.length))).slice(0, MESSAGE_MAX);
    }),
);

const sender = fc.constantFrom('Ann', 'Bob', 'Cy');

const conversation: fc.Arbitrary<ConversationMessage[]> = fc.oneof(
  // A few long messages.
  fc.array(fc.record({ sender, content }), { minLength: 1, maxLength: 6 }),
  // Many short ones, mostly from one person (questions nobody answers).
  fc
    .tuple(
      fc.array(
        fc.record({
          sender: fc.constant('Ann'),
          content: fc.constantFrom('ab cd?', 'why deploy billing?', '私が?'),
        }),
        {
          minLength: 1,
          maxLength: 1500,
        },
      ),
      fc.array(fc.record({ sender, content: fc.array(piece, { maxLength: 12 }).map((p) => p.join('')) }), {
        maxLength: 200,
      }),
    )
    .map(([many, few]) => [...many, ...few]),
);

/** The words of a quote (its clipped end aside) are words of the message it quotes. */
function expectQuoted(
  quote: { text: string; message: number; sender: string },
  messages: ConversationMessage[],
) {
  const source = messages[quote.message];
  expect(source, `message ${quote.message}`).toBeDefined();
  expect(quote.sender).toBe(source?.sender);
  const words = quote.text.replace(/…$/, '').match(/\p{L}+/gu) ?? [];
  for (const word of words.slice(0, -1)) expect(source?.content).toContain(word);
}

describe('built-in summarizer on hostile text', () => {
  it('stops with StepBudgetExceeded when a meter runs out', () => {
    const messages = [{ sender: 'Ann', content: 'We decided to ship the release on Friday.' }];
    expect(() => analyzeConversation(messages, stepMeter(10))).toThrow(StepBudgetExceeded);
  });

  it.each([
    ['a run of 私が', [{ sender: 'Ann', content: '私が'.repeat(2000) }]],
    ['a URL and a run of dots', [{ sender: 'Ann', content: `https://x.example/${'.'.repeat(3980)}a` }]],
    ['mentions without please', [{ sender: 'Ann', content: '@a b '.repeat(800) }]],
    [
      'three thousand unanswered questions',
      Array.from({ length: 3000 }, () => ({ sender: 'Ann', content: 'ab cd?' })),
    ],
  ])('analyses %s within the budget', (_label, messages) => {
    const analysis = analyzeConversation(messages, stepMeter(budgetFor(messages)));
    expect(analysis.messageCount).toBe(messages.length);
  });

  it('analyses generated conversations in linear steps, quoting only what was written', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const analysis = analyzeConversation(messages, stepMeter(budgetFor(messages)));
        expect(analysis.messageCount).toBe(messages.length);
        const senders = new Set(messages.map((m) => m.sender));
        for (const p of analysis.participants) expect(senders.has(p.name)).toBe(true);
        for (const quote of [
          ...analysis.keyPoints,
          ...analysis.decisions,
          ...analysis.openQuestions,
          ...analysis.actionItems,
        ]) {
          expectQuoted(quote, messages);
        }
        expect(renderSummary(analysis)).toMatch(/^\d+ messages? from \d+ participants?/);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
