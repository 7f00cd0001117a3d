import type { TextSegment } from '@cohort/shared/search';
import {
  type Block,
  type Inline,
  parseMarkdown,
  StepBudgetExceeded,
  type StepMeter,
  stepMeter,
} from './parse.ts';

// Private-use characters mark where matches start and end while the text goes through the parser.
const START = '\uE000';
const END = '\uE001';
const SENTINELS = /[\uE000\uE001]/g;

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

function blockText(blocks: Block[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'paragraph':
          return inlineText(block.children);
        case 'code':
          return block.text;
        case 'quote':
          return blockText(block.children);
        default:
          return block.items.map(inlineText).join('\n');
      }
    })
    .join('\n');
}

/**
 * Highlighted Markdown source (a search snippet) as it reads once rendered: `**bold**` is "bold",
 * `@[Ada Lovelace](ada@example.com)` is "@Ada Lovelace", and the matches stay marked. Still text,
 * never HTML: the caller renders the segments as it did the raw ones. Linear in the snippet's length
 * (the parser's, and one pass over its text); should the parser ever fail, the raw segments are
 * shown rather than a broken results page.
 */
export function readableSegments(segments: TextSegment[], meter: StepMeter = stepMeter()): TextSegment[] {
  try {
    return readable(segments, meter);
  } catch (error) {
    if (error instanceof StepBudgetExceeded) throw error; // a test's budget, not a parser failure
    return segments;
  }
}

function readable(segments: TextSegment[], meter: StepMeter): TextSegment[] {
  const source = segments
    .map((s) => {
      const text = s.text.replace(SENTINELS, '');
      return s.match ? `${START}${text}${END}` : text;
    })
    .join('');
  const out: TextSegment[] = [];
  let match = false;
  let text = '';
  const flush = () => {
    if (text) out.push({ text, match });
    text = '';
  };
  const plain = blockText(parseMarkdown(source, meter));
  meter.steps += plain.length;
  for (const ch of plain) {
    if (ch === START || ch === END) {
      flush();
      match = ch === START;
    } else {
      text += ch;
    }
  }
  flush();
  return out;
}
