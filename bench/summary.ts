// The built-in channel summarizer: speed and memory on 100, 1,000 and 10,000 generated messages
// (targets 50 ms, 300 ms, 3 s on one core: the engine is synchronous, one thread), and quality —
// ROUGE-1/2/L F1 against hand-written reference summaries (bench/summary-corpus/) next to a LEAD-3
// baseline (the first three messages), and per-item recall: the decisions, action items, dates and
// open questions a conversation's `expected` lists (each item: words one line of that section must
// all contain; dates anywhere), plus answered questions wrongly listed as open.
// `node --import tsx bench/summary.ts` (RUNS=5 by default).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ConversationMessage,
  summarizeConversation,
} from '../apps/server/src/features/summaries/engine/builtin.ts';
import { repoRoot, report } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 5);

// ---------------------------------------------------------------------------------------------------
// Generated conversations: a seeded PRNG, so every run summarizes the same text.

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PEOPLE = [
  'Alice Smith',
  'Bob Jones',
  'Carol White',
  'Dan Brown',
  'Eva Müller',
  'Felix Wagner',
  'Grace Liu',
  'Hugo Martin',
];
const TOPICS = [
  ['billing', 'invoice', 'payment', 'refund', 'tax', 'currency'],
  ['release', 'changelog', 'staging', 'rollout', 'version', 'hotfix'],
  ['database', 'migration', 'index', 'query', 'schema', 'backup'],
  ['design', 'dashboard', 'contrast', 'sidebar', 'mockup', 'icons'],
  ['hiring', 'candidate', 'interview', 'offer', 'onboarding', 'salary'],
  ['cluster', 'ingress', 'node', 'upgrade', 'latency', 'alerts'],
];
const VERBS = ['needs', 'blocks', 'improves', 'breaks', 'changes', 'delays', 'fixes', 'affects'];
const ADJECTIVES = ['slow', 'new', 'old', 'urgent', 'flaky', 'clean', 'large', 'shared'];

function generate(count: number, seed = 42): ConversationMessage[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  const messages: ConversationMessage[] = [];
  let at = Date.UTC(2026, 0, 5, 8);
  let topic = TOPICS[0] as string[];
  for (let i = 0; i < count; i++) {
    if (rand() < 0.03) {
      topic = pick(TOPICS);
      at += 70 * 60_000;
    } else at += Math.floor(rand() * 4 * 60_000);
    const a = pick(topic);
    const b = pick(topic);
    const roll = rand();
    let content: string;
    if (roll < 0.05) content = `Let's go with the ${pick(ADJECTIVES)} ${a} plan for the ${b}.`;
    else if (roll < 0.1)
      content = `I'll update the ${a} and the ${b} before ${pick(['Friday', 'Monday', 'tonight'])}.`;
    else if (roll < 0.15) content = `Who owns the ${a} for the ${pick(ADJECTIVES)} ${b}?`;
    else if (roll < 0.18) content = `The ${a} notes: https://wiki.example.com/${a}/${i}`;
    else if (roll < 0.2) content = `Here is the ${a} snippet:\n\`\`\`ts\nconst ${a} = load('${b}');\n\`\`\``;
    else if (roll < 0.24) content = pick(['👍', '🎉', '😂', '🙏']);
    else {
      const sentences = 1 + Math.floor(rand() * 3);
      content = Array.from(
        { length: sentences },
        () =>
          `The ${pick(ADJECTIVES)} ${pick(topic)} ${pick(VERBS)} the ${pick(topic)} for the ${pick(ADJECTIVES)} ${pick(topic)}.`,
      ).join(' ');
    }
    messages.push({ sender: pick(PEOPLE), content, at });
  }
  return messages;
}

// ---------------------------------------------------------------------------------------------------
// Speed and memory

const gc = (globalThis as { gc?: () => void }).gc;
const TARGETS: Record<number, number> = { 100: 50, 1000: 300, 10000: 3000 };
const speedRows: Record<string, string | number>[] = [];
summarizeConversation(generate(200, 7)); // warm-up: JIT and ICU data
for (const count of [100, 1000, 10_000]) {
  const messages = generate(count);
  const times: number[] = [];
  let heapDelta = 0;
  for (let r = 0; r < RUNS; r++) {
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    summarizeConversation(messages);
    times.push(performance.now() - started);
    heapDelta = Math.max(heapDelta, process.memoryUsage().heapUsed - heapBefore);
  }
  times.sort((x, y) => x - y);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const target = TARGETS[count] ?? 0;
  speedRows.push({
    messages: count,
    median_ms: Math.round(median * 10) / 10,
    max_ms: Math.round((times.at(-1) ?? 0) * 10) / 10,
    target_ms: target,
    ok: median <= target ? 'yes' : 'NO',
    heap_growth_MiB: Math.round((heapDelta / 2 ** 20) * 10) / 10,
    rss_MiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  });
}
report('summary-speed', speedRows);
if (!gc) console.log('(run with node --expose-gc for steadier heap figures)');

// ---------------------------------------------------------------------------------------------------
// Quality: ROUGE against reference summaries

type Item = string[];
interface Expected {
  decisions?: Item[];
  actionItems?: Item[];
  dates?: Item[];
  openQuestions?: Item[];
  /** Questions that were answered: none of them may be listed as open. */
  answered?: Item[];
}
interface Sample {
  title: string;
  messages: [sender: string, minute: number, content: string][];
  reference: string;
  expected?: Expected;
}

/** The `- ` lines under each `Title:` line of a summary. */
function sections(summary: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of summary.split('\n')) {
    if (line.startsWith('- ') && current) current.push(line.slice(2).toLowerCase());
    else if (/^[^\s-].{0,40}:$/.test(line)) {
      current = [];
      out.set(line.slice(0, -1), current);
    } else current = undefined;
  }
  return out;
}

const hasAll = (line: string, item: Item) => item.every((w) => line.includes(w.toLowerCase()));
const found = (lines: string[], items: Item[] = []) =>
  items.filter((item) => lines.some((line) => hasAll(line, item))).length;

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const words = (text: string) =>
  [...wordSegmenter.segment(text.normalize('NFKC').toLowerCase())]
    .filter((s) => s.isWordLike)
    .map((s) => s.segment);

function ngrams(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const f1 = (overlap: number, candidate: number, reference: number) => {
  if (overlap === 0) return 0;
  const p = overlap / candidate;
  const r = overlap / reference;
  return (2 * p * r) / (p + r);
};

function rougeN(candidate: string[], reference: string[], n: number) {
  const c = ngrams(candidate, n);
  const r = ngrams(reference, n);
  let overlap = 0;
  for (const [k, x] of c) overlap += Math.min(x, r.get(k) ?? 0);
  return f1(overlap, Math.max(1, candidate.length - n + 1), Math.max(1, reference.length - n + 1));
}

function rougeL(candidate: string[], reference: string[]) {
  const row = new Array<number>(reference.length + 1).fill(0);
  for (const c of candidate) {
    let diagonal = 0;
    for (let j = 1; j <= reference.length; j++) {
      const above = row[j] as number;
      row[j] = c === reference[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] as number);
      diagonal = above;
    }
  }
  return f1(row[reference.length] as number, candidate.length, reference.length);
}

const dataDir = join(repoRoot, 'bench', 'summary-corpus');
const samples = readdirSync(dataDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dataDir, f), 'utf8')) as Sample);

const T0 = Date.UTC(2026, 0, 5, 9);
const qualityRows: Record<string, string | number>[] = [];
const totals = { builtin: [0, 0, 0], lead3: [0, 0, 0] };
const pct = (x: number) => Math.round(x * 1000) / 10;
for (const sample of samples) {
  const messages = sample.messages.map(([sender, minute, content]) => ({
    sender,
    content,
    at: T0 + minute * 60_000,
  }));
  const reference = words(sample.reference);
  const builtin = words(summarizeConversation(messages));
  const lead3 = words(
    messages
      .slice(0, 3)
      .map((m) => `${m.sender}: ${m.content}`)
      .join('\n'),
  );
  const scores = {
    builtin: [rougeN(builtin, reference, 1), rougeN(builtin, reference, 2), rougeL(builtin, reference)],
    lead3: [rougeN(lead3, reference, 1), rougeN(lead3, reference, 2), rougeL(lead3, reference)],
  };
  for (const key of ['builtin', 'lead3'] as const) {
    scores[key].forEach((s, i) => {
      totals[key][i] = (totals[key][i] as number) + s;
    });
  }
  qualityRows.push({
    conversation: sample.title,
    'builtin R1/R2/RL': scores.builtin.map(pct).join(' / '),
    'lead3 R1/R2/RL': scores.lead3.map(pct).join(' / '),
    builtin_words: builtin.length,
    reference_words: reference.length,
  });
}
qualityRows.push({
  conversation: `mean of ${samples.length}`,
  'builtin R1/R2/RL': totals.builtin.map((s) => pct(s / samples.length)).join(' / '),
  'lead3 R1/R2/RL': totals.lead3.map((s) => pct(s / samples.length)).join(' / '),
  builtin_words: '',
  reference_words: '',
});
report('summary-quality', qualityRows);

// Per-item recall over the conversations that list what they expect.
const recallRows: Record<string, string | number>[] = [];
const recallTotals = { decisions: [0, 0], actionItems: [0, 0], dates: [0, 0], openQuestions: [0, 0] };
let falseOpen = 0;
const ratio = (hit: number, of: number) => (of === 0 ? '–' : `${hit}/${of}`);
for (const sample of samples) {
  const e = sample.expected;
  if (!e) continue;
  const summary = summarizeConversation(
    sample.messages.map(([sender, minute, content]) => ({ sender, content, at: T0 + minute * 60_000 })),
  );
  const s = sections(summary);
  const all = summary.toLowerCase().split('\n');
  const hits = {
    decisions: [found(s.get('Decisions') ?? [], e.decisions), e.decisions?.length ?? 0],
    actionItems: [found(s.get('Action items') ?? [], e.actionItems), e.actionItems?.length ?? 0],
    dates: [found(all, e.dates), e.dates?.length ?? 0],
    openQuestions: [found(s.get('Open questions') ?? [], e.openQuestions), e.openQuestions?.length ?? 0],
  };
  const wronglyOpen = found(s.get('Open questions') ?? [], e.answered);
  falseOpen += wronglyOpen;
  for (const key of Object.keys(hits) as (keyof typeof hits)[]) {
    recallTotals[key][0] = (recallTotals[key][0] as number) + (hits[key][0] as number);
    recallTotals[key][1] = (recallTotals[key][1] as number) + (hits[key][1] as number);
  }
  recallRows.push({
    conversation: sample.title,
    decisions: ratio(...(hits.decisions as [number, number])),
    action_items: ratio(...(hits.actionItems as [number, number])),
    dates: ratio(...(hits.dates as [number, number])),
    open_questions: ratio(...(hits.openQuestions as [number, number])),
    answered_listed_open: wronglyOpen,
  });
}
const recall = ([hit, of]: number[]) =>
  of ? `${pct((hit as number) / (of as number))}% (${hit}/${of})` : '–';
recallRows.push({
  conversation: `recall over ${recallRows.length}`,
  decisions: recall(recallTotals.decisions),
  action_items: recall(recallTotals.actionItems),
  dates: recall(recallTotals.dates),
  open_questions: recall(recallTotals.openQuestions),
  answered_listed_open: falseOpen,
});
report('summary-items', recallRows);
