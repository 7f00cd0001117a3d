/**
 * A small Markdown dialect for chat messages, parsed to a tree (never to HTML): the renderer turns
 * the tree into React elements, so raw HTML in a message stays literal text.
 *
 * Blocks: paragraphs (single newlines kept), ``` fenced code (optional language), `>` quotes,
 * `-`/`*`/`+` and `1.` lists. Inline: **bold**, *italic* or _italic_, __underline__, ~~strike~~,
 * `code`, [text](url), bare http(s) URLs, @mentions, and backslash escapes.
 * Links only for http:, https: and mailto: URLs; anything else stays text.
 *
 * Everything here runs on text someone else wrote, in every reader's tab, so it must finish in time
 * linear in its input whatever the input (docs/decisions/0007-markdown-renderer.md):
 * - every block step consumes at least one line, and quotes nest at most MAX_QUOTE_DEPTH deep;
 * - inline text is read once, left to right; emphasis is paired with a stack of openers (each
 *   opener is pushed and popped once) instead of searching ahead for a closer from every opener;
 * - "where is the next `]`, backtick, line break" is answered by finders that never re-read text;
 * - regular expressions only run on a bounded window or are anchored with nothing to backtrack over.
 * The work is counted in a StepMeter, which tests use to hold the parser to a budget of c·length.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'em' | 'underline' | 'strike'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'mention'; name: string; email?: string }
  | { type: 'break' };

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'quote'; children: Block[] }
  | { type: 'list'; ordered: boolean; items: Inline[][] };

/** Parser work done so far (characters read, lines classified, nodes moved); tests set a limit. */
export interface StepMeter {
  steps: number;
  limit: number;
}

export class StepBudgetExceeded extends Error {
  constructor(limit: number) {
    super(`Markdown parser exceeded its budget of ${limit} steps`);
    this.name = 'StepBudgetExceeded';
  }
}

export const stepMeter = (limit = Number.POSITIVE_INFINITY): StepMeter => ({ steps: 0, limit });

function tick(meter: StepMeter, steps = 1) {
  meter.steps += steps;
  if (meter.steps > meter.limit) throw new StepBudgetExceeded(meter.limit);
}

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The URL when it is an http(s) or mailto link, else null (javascript:, data:, vbscript:, relative…). */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  // Control characters and whitespace inside a URL are how `java\tscript:` tricks start.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (url === '' || /[\u0000-\u001f\u007f\s]/.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!SAFE_PROTOCOLS.has(parsed.protocol)) return null;
  return parsed.href;
}

const SPACE = /\s/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const isSpace = (ch: string | undefined) => ch !== undefined && SPACE.test(ch);

// ---------------------------------------------------------------------------------------------------
// Blocks

/** Deeper `>` markers are shown as the text they are (a quote in a quote in … is not more readable). */
export const MAX_QUOTE_DEPTH = 5;
const FENCE_LANG = /^[\w+#.-]*$/;

type LineKind =
  | { kind: 'blank' }
  | { kind: 'fence'; lang: string }
  | { kind: 'quote'; rest: string }
  | { kind: 'bullet' | 'ordered'; rest: string }
  | { kind: 'text' };

/** Where the first non-space character is, if at most three spaces come before it. */
function indentOf(line: string): number {
  let at = 0;
  while (at < line.length && at <= 3 && isSpace(line[at])) at += 1;
  return at <= 3 ? at : -1;
}

/** The text after a list marker's spaces, or null without them. */
function afterSpaces(line: string, from: number): string | null {
  let at = from;
  while (at < line.length && isSpace(line[at])) at += 1;
  return at > from ? line.slice(at) : null;
}

/** What a line starts; reads the line once (or twice for a fence). */
function classify(line: string, quotes: boolean): LineKind {
  if (line.trim() === '') return { kind: 'blank' };
  const at = indentOf(line);
  if (at < 0) return { kind: 'text' };
  const ch = line[at];
  if (ch === '`' && line.startsWith('```', at)) {
    const lang = line.slice(at + 3).trim();
    if (FENCE_LANG.test(lang)) return { kind: 'fence', lang: lang.toLowerCase() };
  }
  if (ch === '>' && quotes) {
    return { kind: 'quote', rest: line.slice(line[at + 1] === ' ' ? at + 2 : at + 1) };
  }
  if (ch === '-' || ch === '*' || ch === '+') {
    const rest = afterSpaces(line, at + 1);
    if (rest !== null) return { kind: 'bullet', rest };
  }
  let digits = at;
  while (digits - at <= 9 && (line[digits] ?? '') >= '0' && (line[digits] ?? '') <= '9') digits += 1;
  if (digits > at && digits - at <= 9 && (line[digits] === '.' || line[digits] === ')')) {
    const rest = afterSpaces(line, digits + 1);
    if (rest !== null) return { kind: 'ordered', rest };
  }
  return { kind: 'text' };
}

const isClosingFence = (line: string) => {
  const at = indentOf(line);
  return at >= 0 && line.startsWith('```', at) && line.slice(at + 3).trim() === '';
};

export function parseMarkdown(source: string, meter: StepMeter = stepMeter()): Block[] {
  tick(meter, source.length + 1);
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'), 0, meter);
}

function parseBlocks(lines: string[], depth: number, meter: StepMeter): Block[] {
  const quotes = depth < MAX_QUOTE_DEPTH;
  const kindAt = (i: number) => {
    const line = lines[i] ?? '';
    tick(meter, line.length + 1);
    return classify(line, quotes);
  };
  const blocks: Block[] = [];
  let i = 0;
  // Every branch below consumes at least line i: the loop ends after at most lines.length rounds.
  while (i < lines.length) {
    const first = kindAt(i);
    if (first.kind === 'blank') {
      i += 1;
    } else if (first.kind === 'fence') {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !isClosingFence(lines[i] ?? '')) {
        tick(meter, (lines[i] ?? '').length + 1);
        body.push(lines[i] ?? '');
        i += 1;
      }
      i += 1; // the closing fence (or the end)
      blocks.push({ type: 'code', lang: first.lang, text: body.join('\n') });
    } else if (first.kind === 'quote') {
      const body = [first.rest];
      i += 1;
      for (let next = i < lines.length ? kindAt(i) : null; next?.kind === 'quote'; ) {
        body.push(next.rest);
        i += 1;
        next = i < lines.length ? kindAt(i) : null;
      }
      blocks.push({ type: 'quote', children: parseBlocks(body, depth + 1, meter) });
    } else if (first.kind === 'bullet' || first.kind === 'ordered') {
      const items = [parseInline(first.rest, 0, meter)];
      i += 1;
      for (let next = i < lines.length ? kindAt(i) : null; next?.kind === first.kind; ) {
        items.push(parseInline(next.rest, 0, meter));
        i += 1;
        next = i < lines.length ? kindAt(i) : null;
      }
      blocks.push({ type: 'list', ordered: first.kind === 'ordered', items });
    } else {
      // A paragraph: this line whatever it holds, then the lines that start nothing else.
      const body = [lines[i] ?? ''];
      i += 1;
      while (i < lines.length && kindAt(i).kind === 'text') {
        body.push(lines[i] ?? '');
        i += 1;
      }
      blocks.push({ type: 'paragraph', children: parseInline(body.join('\n'), 0, meter) });
    }
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------------
// Inline

type DelimiterChar = '*' | '_' | '~';
/** A run of `*`, `_` or `~` still in the list: shown as its characters unless it pairs up. */
interface Delimiter {
  type: 'delimiter';
  char: DelimiterChar;
  count: number;
  /** Its index in the list while it waits for a closer. */
  at: number;
}
type Item = Inline | Delimiter;

const EMPHASIS: Record<DelimiterChar, Record<1 | 2, 'strong' | 'em' | 'underline' | 'strike'>> = {
  '*': { 1: 'em', 2: 'strong' },
  _: { 1: 'em', 2: 'underline' },
  '~': { 1: 'strike', 2: 'strike' },
};
/** Emphasis inside emphasis this deep and no deeper; further markers stay text. */
const MAX_INLINE_DEPTH = 8;
const MAX_MENTION_NAME = 100;
const ESCAPABLE = new Set('\\`*_~[]()@>#+-.!|'.split(''));
/** Characters that end a sentence rather than a bare URL. */
const URL_TRAIL = new Set('.,:;"\')]!?'.split(''));
// Sticky and at most 65 characters long: tried at one place, it reads at most 66 characters.
const MENTION = /@([\p{L}\p{N}][\p{L}\p{N}._-]{0,63})/uy;

/**
 * The next index of `ch` at or after `from`, for callers whose `from` only grows: a found index is
 * reused until `from` passes it, so no character is read twice (any `from` still gives the right
 * answer, only without that guarantee).
 */
function finder(text: string, ch: string, meter: StepMeter) {
  let cachedFrom = -1;
  let cachedAt = -1;
  return (from: number): number => {
    if (cachedFrom >= 0 && from >= cachedFrom && (cachedAt === -1 || cachedAt >= from)) return cachedAt;
    const at = text.indexOf(ch, from);
    tick(meter, (at === -1 ? text.length : at) - from + 1);
    cachedFrom = from;
    cachedAt = at;
    return at;
  };
}

const depths = new WeakMap<Inline, number>();
const depthOf = (node: Inline) => depths.get(node) ?? 0;
function withChildren<T extends Inline & { children: Inline[] }>(node: T): T {
  let deepest = 0;
  for (const child of node.children) deepest = Math.max(deepest, depthOf(child));
  depths.set(node, deepest + 1);
  return node;
}

/** Leftover delimiters become text, and neighbouring texts one node. */
function finish(items: Item[], meter: StepMeter): Inline[] {
  tick(meter, items.length);
  const out: Inline[] = [];
  let text = '';
  for (const item of items) {
    if (item.type === 'delimiter' || item.type === 'text') {
      text += item.type === 'text' ? item.text : item.char.repeat(item.count);
      continue;
    }
    if (text) out.push({ type: 'text', text });
    text = '';
    out.push(item);
  }
  if (text) out.push({ type: 'text', text });
  return out;
}

/** Inline Markdown of one paragraph or list item. `depth` > 0 is a link's text (no links in it). */
export function parseInline(text: string, depth = 0, meter: StepMeter = stepMeter()): Inline[] {
  const n = text.length;
  const items: Item[] = [];
  const openers: Delimiter[] = [];
  const openCount: Record<DelimiterChar, number> = { '*': 0, _: 0, '~': 0 };
  const nextBacktick = finder(text, '`', meter);
  const nextBracket = finder(text, ']', meter);
  const nextNewline = finder(text, '\n', meter);
  // Several `[` or `@[` before one `]` all lead to the same `(…)`: it is read once.
  const targets = new Map<number, number>();
  const emails = new Map<number, number>();
  // A run of non-space characters that is not a URL from its `http` on is not searched again.
  let noAutolinkBefore = 0;

  let i = 0;
  let textStart = 0;
  /** Plain text read so far becomes a node. */
  const flush = (end: number) => {
    if (end > textStart) items.push({ type: 'text', text: text.slice(textStart, end) });
    textStart = end;
  };
  /** A node for text[i, next), then reading goes on at `next`. */
  const emit = (node: Inline, next: number) => {
    flush(i);
    items.push(node);
    i = next;
    textStart = next;
  };

  /** The `)` ending `(target)` right after the `]` at `close` (no spaces or parentheses inside), or -1. */
  const targetEnd = (close: number): number => {
    const cached = targets.get(close);
    if (cached !== undefined) return cached;
    let end = -1;
    if (text[close + 1] === '(') {
      let at = close + 2;
      while (at < n && text[at] !== '(' && text[at] !== ')' && !isSpace(text[at])) at += 1;
      tick(meter, at - close);
      if (text[at] === ')' && at > close + 2) end = at;
    }
    targets.set(close, end);
    return end;
  };

  /** The `)` ending `(local@domain)` right after the `]` at `close`, or -1. */
  const emailEnd = (close: number): number => {
    const cached = emails.get(close);
    if (cached !== undefined) return cached;
    let end = -1;
    if (text[close + 1] === '(') {
      const stop = (ch: string | undefined) => ch === '(' || ch === ')' || isSpace(ch);
      let at = close + 2;
      while (at < n && !stop(text[at]) && text[at] !== '@') at += 1;
      if (at > close + 2 && text[at] === '@') {
        const domain = at + 1;
        at = domain;
        while (at < n && !stop(text[at])) at += 1;
        if (at > domain && text[at] === ')') end = at;
      }
      tick(meter, at - close);
    }
    emails.set(close, end);
    return end;
  };

  /** Pairs a run of delimiters with the nearest openers of the same character. */
  const delimiterRun = (char: DelimiterChar, count: number, canOpen: boolean, canClose: boolean) => {
    let left = count;
    while (canClose && left > 0 && openCount[char] > 0) {
      // Openers of other characters between this closer and its opener stay text.
      let opener = openers[openers.length - 1] as Delimiter;
      while (opener.char !== char) {
        tick(meter);
        openers.pop();
        openCount[opener.char] -= 1;
        opener = openers[openers.length - 1] as Delimiter;
      }
      const pair = Math.min(opener.count, left);
      // `***a***` is strong(em(a)): an odd pair takes one marker first, innermost.
      const use: 1 | 2 = char === '~' ? 2 : pair % 2 === 0 ? 2 : 1;
      if (pair < use || opener.at + 1 >= items.length) break;
      let deepest = 0;
      for (let k = opener.at + 1; k < items.length; k++) {
        const item = items[k] as Item;
        if (item.type !== 'delimiter') deepest = Math.max(deepest, depthOf(item));
      }
      tick(meter, items.length - opener.at);
      if (deepest >= MAX_INLINE_DEPTH) {
        // Every opener left is further out than this one: none of them can pair any more.
        for (const gone of openers) openCount[gone.char] -= 1;
        openers.length = 0;
        break;
      }
      const children = finish(items.slice(opener.at + 1), meter);
      items.length = opener.at + 1;
      items.push(withChildren({ type: EMPHASIS[char][use], children }));
      opener.count -= use;
      left -= use;
      if (opener.count < (char === '~' ? 2 : 1)) {
        openers.pop();
        openCount[char] -= 1;
      }
    }
    if (left > 0) {
      const delimiter: Delimiter = { type: 'delimiter', char, count: left, at: items.length };
      items.push(delimiter);
      if (canOpen && left >= (char === '~' ? 2 : 1)) {
        openers.push(delimiter);
        openCount[char] += 1;
      }
    }
  };

  while (i < n) {
    tick(meter);
    const ch = text[i] as string;
    const before = text[i - 1];

    if (ch === '\\' && ESCAPABLE.has(text[i + 1] ?? '')) {
      // The escaped character starts the next run of plain text.
      flush(i);
      textStart = i + 1;
      i += 2;
      continue;
    }
    if (ch === '\n') {
      emit({ type: 'break' }, i + 1);
      continue;
    }
    if (ch === '`') {
      const end = nextBacktick(i + 1);
      if (end > i + 1) {
        emit({ type: 'code', text: text.slice(i + 1, end) }, end + 1);
        continue;
      }
    }
    if (ch === '[' && depth === 0) {
      const close = nextBracket(i + 1);
      const newline = nextNewline(i + 1);
      const end = close > i + 1 && (newline === -1 || newline > close) ? targetEnd(close) : -1;
      if (end !== -1) {
        const target = text.slice(close + 2, end);
        tick(meter, target.length);
        const href = safeHref(target);
        if (href) {
          const children = parseInline(text.slice(i + 1, close), depth + 1, meter);
          emit(withChildren({ type: 'link', href, children }), end + 1);
        } else {
          // An unsafe target: keep the whole thing as literal text.
          i = end + 1;
        }
        continue;
      }
    }
    if (
      ch === 'h' &&
      depth === 0 &&
      i >= noAutolinkBefore &&
      (i === 0 || before === '(' || isSpace(before))
    ) {
      const scheme = text.startsWith('https://', i) ? 8 : text.startsWith('http://', i) ? 7 : 0;
      if (scheme > 0) {
        let runEnd = i;
        while (runEnd < n && text[runEnd] !== '<' && !isSpace(text[runEnd])) runEnd += 1;
        let end = runEnd;
        while (end > i && URL_TRAIL.has(text[end - 1] ?? '')) end -= 1;
        tick(meter, 2 * (runEnd - i));
        const href = end >= i + scheme + 2 ? safeHref(text.slice(i, end)) : null;
        if (href) {
          emit(
            withChildren({ type: 'link', href, children: [{ type: 'text', text: text.slice(i, end) }] }),
            end,
          );
          continue;
        }
        noAutolinkBefore = runEnd;
      }
    }
    if (ch === '@' && (before === undefined || !LETTER_OR_DIGIT.test(before))) {
      // A member mention as the composer inserts it: `@[Display Name](email)` (docs/notifications.md).
      if (text[i + 1] === '[') {
        const close = nextBracket(i + 2);
        const newline = nextNewline(i + 2);
        const named =
          close > i + 2 && close - (i + 2) <= MAX_MENTION_NAME && (newline === -1 || newline > close);
        const end = named ? emailEnd(close) : -1;
        if (end !== -1) {
          flush(i);
          const name = text.slice(i + 2, close).trim();
          emit({ type: 'mention', name, email: text.slice(close + 2, end) }, end + 1);
          continue;
        }
      }
      MENTION.lastIndex = i;
      const mention = MENTION.exec(text);
      tick(meter, (mention?.[0].length ?? 1) + 1);
      if (mention) {
        // A trailing dot ends a sentence, not the name (a loop: `[._-]+$` backtracks on a run of dots).
        let name = mention[1] ?? '';
        while (name.length > 1 && '._-'.includes(name[name.length - 1] as string)) name = name.slice(0, -1);
        emit({ type: 'mention', name }, i + name.length + 1);
        continue;
      }
    }
    if (ch === '*' || ch === '_' || ch === '~') {
      let runEnd = i;
      while (text[runEnd] === ch) runEnd += 1;
      tick(meter, runEnd - i);
      const after = text[runEnd];
      const wordBefore = before !== undefined && LETTER_OR_DIGIT.test(before);
      const wordAfter = after !== undefined && LETTER_OR_DIGIT.test(after);
      // Openers touch the text after them, closers the text before; `_` inside words (snake_case)
      // is neither, and a lone `~` is just a tilde.
      const canOpen = after !== undefined && !isSpace(after) && !(ch === '_' && wordBefore);
      const canClose = before !== undefined && !isSpace(before) && !(ch === '_' && wordAfter);
      if ((canOpen || canClose) && !(ch === '~' && runEnd - i < 2)) {
        flush(i);
        delimiterRun(ch, runEnd - i, canOpen, canClose);
        textStart = runEnd;
      }
      i = runEnd;
      continue;
    }
    i += 1;
  }
  flush(n);
  return finish(items, meter);
}
