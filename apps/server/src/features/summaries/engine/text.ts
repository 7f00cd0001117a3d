/**
 * Text handling for the built-in summarizer: Unicode-aware sentence and word segmentation
 * (Intl.Segmenter, so Chinese, Japanese, Thai… split into words too), stop words, a light English
 * stemmer, and sparse TF-IDF vectors. Pure functions, no I/O.
 *
 * The summarizer reads what anyone in a channel wrote, so its work must stay linear in the text
 * (issue 17): every pass over a text is counted in a StepMeter, regular expressions here have nothing
 * to backtrack over, and tests hold the whole analysis to a budget proportional to its input.
 */

/** Work done: characters read by each pass and rounds of each loop. Tests set a limit. */
export interface StepMeter {
  steps: number;
  limit: number;
}

export class StepBudgetExceeded extends Error {
  constructor(limit: number) {
    super(`Summarizer exceeded its budget of ${limit} steps`);
    this.name = 'StepBudgetExceeded';
  }
}

export const stepMeter = (limit = Number.POSITIVE_INFINITY): StepMeter => ({ steps: 0, limit });

export function tick(meter: StepMeter, steps = 1) {
  meter.steps += steps;
  if (meter.steps > meter.limit) throw new StepBudgetExceeded(meter.limit);
}

// A fixed locale keeps the output identical on every machine; ICU's word and sentence rules (and its
// CJK dictionaries) apply to every script regardless of the locale.
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Frequent words of the languages a team is likely to chat in, and chat filler. */
const STOPWORDS = new Set(
  [
    // English
    'a about above after again against all also am an and any are aren as at be because been before being below between both but by can cannot could couldn did didn do does doesn doing don down during each few for from further get gets got had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself just let lets me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should shouldn so some such than that the their theirs them themselves then there these they this those through to too under until up very was wasn we were weren what when where which while who whom why will with won would wouldn you your yours yourself yourselves ll re ve s t d m',
    'ok okay yeah yes yep nope hi hey hello thanks thank thx lol haha hmm ah oh well really actually maybe sure right think know like want need going gonna wanna one thing things something anything still even much many lot lots way also already today yesterday tomorrow',
    // Spanish
    'el la los las un una unos unas de del al y o que en es son por para con sin se su sus lo le les me mi mis te tu tus nos como pero más muy ya este esta estos estas ese esa eso hay fue ser está están sí si no también cuando donde porque qué',
    // French
    'le la les un une des du de et ou que qui en est sont pour par avec sans se sa son ses ce cette ces il elle ils elles nous vous je tu on au aux dans sur pas ne plus mais très oui non comme être avoir fait été',
    // German
    'der die das den dem des ein eine einen einem einer und oder aber ist sind war für mit ohne auf aus bei nach von zu zum zur im in an es sie er wir ihr ich du nicht kein keine auch noch nur schon sehr ja nein wie was wenn dass',
    // Portuguese and Italian
    'o os as um uma uns umas do da dos das e ou em no na nos nas por para com sem é são foi ser ele ela eles elas nós você não sim mas muito il lo gli di che è per con non si una sono',
  ]
    .join(' ')
    .split(/\s+/),
);

/** Words a sentence cites: lower-cased, NFKC-normalized, curly apostrophes straightened. */
export function normalize(text: string): string {
  return text.normalize('NFKC').replace(/[\u2018\u2019\u02bc]/g, "'");
}

/** A light English suffix stripper: enough to make "deploys", "deployed" and "deploying" one term. */
function stem(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length <= 4) return word;
  if (word.endsWith('ies') && word.length > 5) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 6) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

export interface Token {
  term: string;
  /** The word as written (lower-cased), to label topics with real words rather than stems. */
  surface: string;
}

/** Scripts written without spaces between words: only a dictionary (ICU's) finds their words. */
const NO_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Words of space-separated scripts, as ICU would split them (letters, marks, digits; inner ' and .). */
const SPACED_WORD = /[\p{L}\p{M}\p{N}]+(?:['.][\p{L}\p{M}\p{N}]+)*/gu;

function words(text: string): string[] {
  // Intl.Segmenter is exact but slow per word; for text that separates words with spaces a regex
  // finds the same words several times faster.
  if (!NO_SPACES.test(text)) return text.match(SPACED_WORD) ?? [];
  const out: string[] = [];
  for (const segment of wordSegmenter.segment(text)) if (segment.isWordLike) out.push(segment.segment);
  return out;
}

/** The word without apostrophes at its ends (a loop: `'+$` would be quadratic on a run of them). */
function trimApostrophes(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && word[start] === "'") start += 1;
  while (end > start && word[end - 1] === "'") end -= 1;
  return start === 0 && end === word.length ? word : word.slice(start, end);
}

/** The content words of `text`: word-like segments with a letter, minus stop words, stemmed. */
export function tokenize(text: string, meter: StepMeter = stepMeter()): Token[] {
  // normalize, lower-case, find the words, then each word a few times.
  tick(meter, 6 * (text.length + 1));
  const out: Token[] = [];
  for (const segment of words(normalize(text).toLowerCase())) {
    const word = trimApostrophes(segment);
    if (!LETTER.test(word) || STOPWORDS.has(word)) continue;
    if (word.length < 2 && !CJK.test(word)) continue;
    out.push({ term: stem(word), surface: word });
  }
  return out;
}

/** Sentences of a paragraph, trimmed, empty ones dropped. Line breaks end sentences too. */
export function splitSentences(text: string, meter: StepMeter = stepMeter()): string[] {
  tick(meter, 3 * (text.length + 1));
  // Nothing that could end a sentence before the last character: one sentence, no segmenter needed.
  if (!/[.!?\n\u3002\uff01\uff1f\u0964\u061f]./su.test(text)) {
    const sentence = text.replace(/\s+/g, ' ').trim();
    return sentence ? [sentence] : [];
  }
  const out: string[] = [];
  for (const segment of sentenceSegmenter.segment(text)) {
    const sentence = segment.segment.replace(/\s+/g, ' ').trim();
    if (sentence) out.push(sentence);
  }
  return out;
}

export const hasWords = (text: string) => LETTER_OR_DIGIT.test(text);

/** A sparse vector, unit length after `unit()`; cosine of two unit vectors is their dot product. */
export type Vector = Map<string, number>;

export function termCounts(terms: readonly string[]): Vector {
  const counts: Vector = new Map();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

export function unit(v: Vector): Vector {
  let sum = 0;
  for (const x of v.values()) sum += x * x;
  if (sum === 0) return v;
  const norm = Math.sqrt(sum);
  const out: Vector = new Map();
  for (const [k, x] of v) out.set(k, x / norm);
  return out;
}

export function dot(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [k, x] of small) {
    const y = large.get(k);
    if (y !== undefined) sum += x * y;
  }
  return sum;
}

/** Inverse document frequencies over `documents` (each a list of terms), smoothed so none is zero. */
export function inverseDocumentFrequencies(documents: readonly (readonly string[])[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const doc of documents) {
    for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const n = documents.length;
  const idf = new Map<string, number>();
  for (const [t, d] of df) idf.set(t, Math.log((n + 1) / (d + 1)) + 1);
  return idf;
}

export function tfidf(terms: readonly string[], idf: Map<string, number>): Vector {
  const v: Vector = new Map();
  for (const [t, c] of termCounts(terms)) v.set(t, (1 + Math.log(c)) * (idf.get(t) ?? 1));
  return unit(v);
}

/** Cuts a sentence for display at a word boundary. */
export function clip(text: string, max = 200): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
