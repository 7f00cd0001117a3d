import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileMessage, KNOWN_HOSTILE, MESSAGE_MAX, markupSoup } from './hostile-markdown.ts';
import { Markdown } from './markdown.tsx';
import {
  type Block,
  type Inline,
  MAX_QUOTE_DEPTH,
  parseMarkdown,
  StepBudgetExceeded,
  type StepMeter,
  stepMeter,
} from './parse.ts';
import { readableSegments } from './readable.ts';

/**
 * Issue 17: a short message of nested `>` quotes sent the parser into an endless loop in every
 * reader's tab. The parser counts its work (characters read, lines classified, nodes moved) in a
 * StepMeter; here every message must be parsed within a budget proportional to its length. A meter
 * with a limit throws instead of looping, so a regression fails the test rather than hanging it.
 * The budget is generous for a linear parser (the worst measured, five quote levels deep,
 * is about 12 steps a character) and far
 * below what a quadratic one needs on 4,000 characters (millions of steps).
 */
const STEPS_PER_CHAR = 30;
const budget = (length: number) => STEPS_PER_CHAR * (length + 1);

function inlineText(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
        case 'code':
          return node.text;
        case 'break':
          return '\n';
        case 'mention':
          return `@${node.name}`;
        default:
          return inlineText(node.children);
      }
    })
    .join('');
}

function textOf(blocks: Block[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'paragraph':
          return inlineText(block.children);
        case 'code':
          return block.text;
        case 'quote':
          return textOf(block.children);
        default:
          return block.items.map(inlineText).join('\n');
      }
    })
    .join('\n');
}

function quoteDepth(blocks: Block[]): number {
  let deepest = 0;
  for (const block of blocks) {
    if (block.type === 'quote') deepest = Math.max(deepest, 1 + quoteDepth(block.children));
  }
  return deepest;
}

function parseWithinBudget(source: string): { blocks: Block[]; meter: StepMeter } {
  const meter = stepMeter(budget(source.length));
  return { blocks: parseMarkdown(source, meter), meter };
}

const lettersOf = (text: string) => text.replace(/[^a-z]/g, '');

describe('the Markdown parser on hostile messages', () => {
  it('stops with StepBudgetExceeded, not a hang, when a meter runs out', () => {
    expect(() => parseMarkdown('plain words '.repeat(100), stepMeter(50))).toThrow(StepBudgetExceeded);
  });

  const known = KNOWN_HOSTILE.map((source) => [JSON.stringify(source).slice(0, 40), source]);
  it.each(known)('parses %s within the budget, keeping its text', (_label, source) => {
    const { blocks } = parseWithinBudget(source);
    expect(quoteDepth(blocks)).toBeLessThanOrEqual(MAX_QUOTE_DEPTH);
    // Every letter is shown, but for link targets.
    expect(lettersOf(textOf(blocks))).toBe(lettersOf(source.replace(/\]\([^)]*\)/g, ']')));
  });

  it('nests quotes five deep and shows deeper markers as text', () => {
    const { blocks } = parseWithinBudget('>>>>>>>>x');
    let level: Block[] = blocks;
    for (let depth = 0; depth < MAX_QUOTE_DEPTH; depth++) {
      expect(level).toHaveLength(1);
      const [quote] = level;
      if (quote?.type !== 'quote') throw new Error(`no quote at depth ${depth}`);
      level = quote.children;
    }
    expect(level).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: '>>>x' }] }]);
  });

  it('parses generated nested and unbalanced Markdown in linear steps, every visible word kept', () => {
    fc.assert(
      fc.property(hostileMessage, ({ md, words }) => {
        expect(md.length).toBeLessThanOrEqual(MESSAGE_MAX);
        const { blocks } = parseWithinBudget(md);
        const text = textOf(blocks);
        for (const word of words) expect(text).toContain(word);
      }),
      { numRuns: 400 },
    );
  });

  it('parses any string of markup characters in linear steps, inventing no text', () => {
    fc.assert(
      fc.property(markupSoup, (source) => {
        const { blocks } = parseWithinBudget(source);
        const allowed = new Set(source.replace(/\r/g, '\n'));
        for (const ch of textOf(blocks)) expect(allowed.has(ch), JSON.stringify(ch)).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('turns search snippets of such messages into readable text in linear steps', () => {
    const snippet = fc
      .tuple(hostileMessage, fc.array(fc.nat(), { maxLength: 8 }))
      .map(([{ md, words }, cuts]) => {
        const points = [...new Set(cuts.map((c) => c % (md.length + 1)))].sort((a, b) => a - b);
        const segments = [0, ...points].map((start, k) => ({
          text: md.slice(start, points[k] ?? md.length),
          match: k % 2 === 1,
        }));
        return { segments, words, md };
      });
    fc.assert(
      fc.property(snippet, ({ segments, words, md }) => {
        const meter = stepMeter(budget(md.length));
        const readable = readableSegments(segments, meter);
        expect(readable.filter((s) => s.match).length).toBeLessThanOrEqual(segments.length);
        // Segments split words, never drop them: joined, every visible word is there.
        const text = readable.map((s) => s.text).join('');
        for (const word of words) expect(text).toContain(word);
      }),
      { numRuns: 200 },
    );
  });

  it('renders such messages: no exception, every visible word shown, only safe links', () => {
    fc.assert(
      fc.property(hostileMessage, ({ md, words }) => {
        const { container, unmount } = render(<Markdown source={md} />);
        const text = container.textContent ?? '';
        for (const word of words) expect(text).toContain(word);
        for (const a of container.querySelectorAll('a')) {
          expect(a.getAttribute('href')).toMatch(/^(https?:|mailto:)/);
          expect(a.getAttribute('rel')).toBe('noopener noreferrer');
        }
        unmount();
      }),
      { numRuns: 40 },
    );
  });
});
