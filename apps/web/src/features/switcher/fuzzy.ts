/**
 * The fuzzy matcher of the quick switcher and the search box's suggestions: a query matches a text
 * when its characters appear in the text in order (case-insensitively; spaces in the query are
 * ignored). Matches are scored in tiers, best first:
 *
 * 1. the text starts with the query (`gen` → "general");
 * 2. the query is a run of the text starting a word (`rev` → "design-reviews");
 * 3. the query is a run anywhere in the text (`sig` → "design");
 * 4. scattered characters (`dsrv` → "design-reviews"), better the more of them start words and the
 *    fewer characters lie between them.
 *
 * Within a tier, earlier and shorter matches score higher. Callers break ties by recency.
 */

export interface FuzzyMatch {
  score: number;
  /** Indexes (UTF-16) of the matched characters of the text, ascending: what to highlight. */
  positions: number[];
}

const TIER = 10_000;
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Whether index `i` of `text` starts a word: the first character, after a separator, or camelCase. */
export function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1];
  const here = text[i];
  if (!isWordChar(prev)) return isWordChar(here);
  return prev !== undefined && here !== undefined && /\p{Ll}/u.test(prev) && /\p{Lu}/u.test(here);
}

/** Whether `query` (already lower-cased) is a subsequence of `lower` from index `from`. */
function subsequenceFrom(lower: string, query: string, from: number): boolean {
  let j = from;
  for (const c of query) {
    j = lower.indexOf(c, j);
    if (j < 0) return false;
    j += 1;
  }
  return true;
}

const range = (start: number, length: number) => Array.from({ length }, (_, k) => start + k);

export function fuzzyMatch(rawQuery: string, text: string): FuzzyMatch | null {
  const query = rawQuery.toLowerCase().replace(/\s+/g, '');
  if (!query) return { score: 0, positions: [] };
  const lower = text.toLowerCase();
  // Lower-casing may change lengths (rare: "İ"); then positions would drift, so match without them.
  const sameLength = lower.length === text.length;
  const extra = Math.min(text.length - query.length, 999);

  if (lower.startsWith(query)) {
    return { score: 4 * TIER - extra, positions: sameLength ? range(0, query.length) : [] };
  }
  let firstRun = -1;
  for (let at = lower.indexOf(query); at >= 0; at = lower.indexOf(query, at + 1)) {
    if (firstRun < 0) firstRun = at;
    if (isWordStart(text, at)) {
      return {
        score: 3 * TIER - Math.min(at, 999) * 2 - extra,
        positions: sameLength ? range(at, query.length) : [],
      };
    }
  }
  if (firstRun >= 0) {
    return {
      score: 2 * TIER - Math.min(firstRun, 999) * 2 - extra,
      positions: sameLength ? range(firstRun, query.length) : [],
    };
  }
  if (!subsequenceFrom(lower, query, 0)) return null;

  // Scattered: each character at the first word start from which the rest still matches, else at its
  // next occurrence (which always leaves the rest matchable when any choice does).
  const positions: number[] = [];
  let from = 0;
  for (let q = 0; q < query.length; q++) {
    const c = query[q] as string;
    const rest = query.slice(q + 1);
    const next = lower.indexOf(c, from);
    let chosen = next;
    for (let j = next; j >= 0; j = lower.indexOf(c, j + 1)) {
      if (isWordStart(text, j) && subsequenceFrom(lower, rest, j + 1)) {
        chosen = j;
        break;
      }
    }
    positions.push(chosen);
    from = chosen + 1;
  }
  let bonus = 0;
  for (let k = 0; k < positions.length; k++) {
    const p = positions[k] as number;
    if (isWordStart(text, p)) bonus += 100;
    if (k > 0 && p === (positions[k - 1] as number) + 1) bonus += 30;
    if (k > 0) bonus -= Math.min(p - (positions[k - 1] as number) - 1, 50);
  }
  bonus -= Math.min(positions[0] as number, 50) + Math.min(extra, 50);
  return {
    score: TIER + Math.max(1, Math.min(TIER - 1, 5_000 + bonus)),
    positions: sameLength ? positions : [],
  };
}

export interface Segment {
  text: string;
  match: boolean;
}

/** The text cut into matched and unmatched runs, for rendering the matches in <mark>. */
export function highlight(text: string, positions: readonly number[]): Segment[] {
  const marked = new Set(positions);
  const out: Segment[] = [];
  for (let i = 0; i < text.length; i++) {
    const match = marked.has(i);
    const last = out.at(-1);
    if (last && last.match === match) last.text += text[i];
    else out.push({ text: text[i] as string, match });
  }
  return out;
}
