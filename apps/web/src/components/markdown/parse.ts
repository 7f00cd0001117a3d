/**
 * A small Markdown dialect for chat messages, parsed to a tree (never to HTML): the renderer turns
 * the tree into React elements, so raw HTML in a message stays literal text.
 *
 * Blocks: paragraphs (single newlines kept), ``` fenced code (optional language), `>` quotes,
 * `-`/`*`/`+` and `1.` lists. Inline: **bold**, *italic* or _italic_, __underline__, ~~strike~~,
 * `code`, [text](url), bare http(s) URLs, @mentions, and backslash escapes.
 * Links only for http:, https: and mailto: URLs; anything else stays text.
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

const FENCE = /^\s{0,3}```\s*([\w+#.-]*)\s*$/;
const QUOTE = /^\s{0,3}> ?(.*)$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;

export function parseMarkdown(source: string, depth = 0): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !/^\s{0,3}```\s*$/.test(lines[i] ?? '')) {
        body.push(lines[i] ?? '');
        i += 1;
      }
      i += 1; // the closing fence (or the end)
      blocks.push({ type: 'code', lang: (fence[1] ?? '').toLowerCase(), text: body.join('\n') });
      continue;
    }
    if (QUOTE.test(line) && depth < 5) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) {
        body.push(QUOTE.exec(lines[i] ?? '')?.[1] ?? '');
        i += 1;
      }
      blocks.push({ type: 'quote', children: parseMarkdown(body.join('\n'), depth + 1) });
      continue;
    }
    const listPattern = BULLET.test(line) ? BULLET : ORDERED.test(line) ? ORDERED : null;
    if (listPattern) {
      const items: Inline[][] = [];
      while (i < lines.length && listPattern.test(lines[i] ?? '')) {
        items.push(parseInline(listPattern.exec(lines[i] ?? '')?.[1] ?? ''));
        i += 1;
      }
      blocks.push({ type: 'list', ordered: listPattern === ORDERED, items });
      continue;
    }
    const body: string[] = [];
    while (
      i < lines.length &&
      (lines[i] ?? '').trim() !== '' &&
      !FENCE.test(lines[i] ?? '') &&
      !QUOTE.test(lines[i] ?? '') &&
      !BULLET.test(lines[i] ?? '') &&
      !ORDERED.test(lines[i] ?? '')
    ) {
      body.push(lines[i] ?? '');
      i += 1;
    }
    blocks.push({ type: 'paragraph', children: parseInline(body.join('\n')) });
  }
  return blocks;
}

const DELIMITERS: Array<{ marker: string; type: 'strong' | 'em' | 'underline' | 'strike' }> = [
  { marker: '**', type: 'strong' },
  { marker: '__', type: 'underline' },
  { marker: '~~', type: 'strike' },
  { marker: '*', type: 'em' },
  { marker: '_', type: 'em' },
];
const ESCAPABLE = new Set('\\`*_~[]()@>#+-.!|'.split(''));
const AUTOLINK = /^(https?:\/\/[^\s<]+[^\s<.,:;"')\]!?])/;
const MENTION = /^@([\p{L}\p{N}][\p{L}\p{N}._-]{0,63})/u;
/** A member mention as the composer inserts it: `@[Display Name](email)` (docs/notifications.md). */
const MEMBER_MENTION = /^@\[([^\]\n]{1,100})\]\(([^()\s@]+@[^()\s]+)\)/u;

export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    const rest = text.slice(i);
    if (ch === '\\' && ESCAPABLE.has(text[i + 1] ?? '')) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '\n') {
      flush();
      out.push({ type: 'break' });
      i += 1;
      continue;
    }
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ type: 'code', text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '[' && depth < 4) {
      const link = /^\[([^\]\n]+)\]\(([^()\s]+)\)/.exec(rest);
      if (link) {
        const href = safeHref(link[2] ?? '');
        if (href) {
          flush();
          out.push({ type: 'link', href, children: parseInline(link[1] ?? '', depth + 1) });
          i += link[0].length;
          continue;
        }
        // An unsafe target: keep the whole thing as literal text.
        buffer += link[0];
        i += link[0].length;
        continue;
      }
    }
    if (ch === 'h' && depth < 4 && (i === 0 || /[\s(]/.test(text[i - 1] ?? ''))) {
      const auto = AUTOLINK.exec(rest);
      const href = auto ? safeHref(auto[1] ?? '') : null;
      if (auto && href) {
        flush();
        out.push({ type: 'link', href, children: [{ type: 'text', text: auto[1] ?? '' }] });
        i += (auto[1] ?? '').length;
        continue;
      }
    }
    if (ch === '@' && (i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1] ?? ''))) {
      const member = MEMBER_MENTION.exec(rest);
      if (member) {
        flush();
        out.push({ type: 'mention', name: (member[1] ?? '').trim(), email: member[2] ?? '' });
        i += member[0].length;
        continue;
      }
      const mention = MENTION.exec(rest);
      if (mention) {
        flush();
        // A trailing dot ends a sentence, not the name.
        const name = (mention[1] ?? '').replace(/[._-]+$/, '');
        out.push({ type: 'mention', name });
        i += name.length + 1;
        continue;
      }
    }
    const delimiter = depth < 8 ? DELIMITERS.find((d) => rest.startsWith(d.marker)) : undefined;
    if (delimiter) {
      const { marker } = delimiter;
      const start = i + marker.length;
      // Opening runs must touch text; `_` inside words (snake_case) is not emphasis.
      const intraword = marker.startsWith('_') && i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1] ?? '');
      if (!intraword && text[start] !== undefined && !/\s/.test(text[start] ?? '')) {
        const end = findClosing(text, start, marker);
        if (end !== -1) {
          flush();
          out.push({ type: delimiter.type, children: parseInline(text.slice(start, end), depth + 1) });
          i = end + marker.length;
          continue;
        }
      }
      buffer += marker;
      i += marker.length;
      continue;
    }
    buffer += ch;
    i += 1;
  }
  flush();
  return out;
}

/** The index of the closing `marker` (not preceded by whitespace, not inside a code span), or -1. */
function findClosing(text: string, from: number, marker: string): number {
  let i = from;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end !== -1) {
        i = end + 1;
        continue;
      }
    }
    if (text.startsWith(marker, i) && i > from && !/\s/.test(text[i - 1] ?? '')) {
      // `*` must not close on the first half of `**`.
      if (marker.length === 1 && text[i + 1] === marker) {
        const doubleEnd = findClosing(text, i + 2, marker + marker);
        if (doubleEnd !== -1) {
          i = doubleEnd + 2;
          continue;
        }
      }
      if (marker.startsWith('_') && /[\p{L}\p{N}]/u.test(text[i + marker.length] ?? '')) {
        i += marker.length;
        continue;
      }
      // In a longer run (`***`), the closing pair is its last characters: `***b***` is strong(em(b)).
      while (marker.length > 1 && text.startsWith(marker, i + 1)) i += 1;
      return i;
    }
    i += 1;
  }
  return -1;
}
