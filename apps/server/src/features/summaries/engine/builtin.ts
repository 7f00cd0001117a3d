import { MENTION_PATTERN } from '@cohort/shared/notifications';
import {
  agreementStatement,
  hasDate,
  isBareAgreement,
  isBareTakeOn,
  requestStatement,
  restate,
} from './restate.ts';
import {
  clip,
  dot,
  hasWords,
  inverseDocumentFrequencies,
  normalize,
  type StepMeter,
  splitSentences,
  stepMeter,
  termCounts,
  tfidf,
  tick,
  tokenize,
  type Vector,
} from './text.ts';

/**
 * The built-in summarizer: extractive, deterministic, no network and no model. For a chat window it
 * finds who took part, groups the messages into topics (time gaps and lexical cohesion, TextTiling
 * style), ranks sentences inside each topic with LexRank (PageRank over the cosine graph of TF-IDF
 * vectors), picks key points with MMR (relevance minus redundancy), and lists decisions, open
 * questions, action items, links and code. Every line quotes a sentence of the window with its sender;
 * names come only from the senders (or from @mentions as written).
 */

export interface ConversationMessage {
  /** The sender's display name, exactly as the summary may cite it. */
  sender: string;
  content: string;
  /** Epoch milliseconds; without it the order of the array is the order of the conversation. */
  at?: number | undefined;
}

export interface Quote {
  sender: string;
  text: string;
  /** Index of the message it comes from. */
  message: number;
  /**
   * The line as a self-contained sentence naming who and what (decisions, action items, dates):
   * "I"/"we" resolved to the speaker, an agreement carrying what it agreed to (issue 19).
   */
  statement?: string;
}

export interface ActionItem extends Quote {
  /** Who it is for: the participant an `@name` or a leading "Name," designates, else `@name` as written, or who took it on. */
  assignee?: string;
  /** Id of the sentence it comes from. */
  sentence?: number;
}

export interface Topic {
  label: string[];
  participants: string[];
  messageCount: number;
  first: number;
  last: number;
}

export interface ConversationAnalysis {
  messageCount: number;
  participants: { name: string; messages: number }[];
  reactions: number;
  topics: Topic[];
  keyPoints: Quote[];
  decisions: Quote[];
  openQuestions: Quote[];
  actionItems: ActionItem[];
  /** Sentences with a date or deadline that no decision or action item already carries. */
  dates: Quote[];
  links: { url: string; sender: string }[];
  code: { sender: string; language: string }[];
}

// Limits that keep the text short and the work bounded on huge windows.
const MAX_SENTENCES_PER_MESSAGE = 40;
const MAX_CANDIDATES_PER_TOPIC = 100;
const MAX_TOPICS = 5;
const MAX_KEY_POINTS = 6;
const MAX_LISTED = 5;
const MAX_ACTIONS = 8;
const MAX_DATES = 6;
/** How many messages back an "Agreed." or "On it." looks for what it answers. */
const MAX_ANSWERED_LOOKBACK = 5;
const MAX_NAMES = 8;
/** How many later messages may answer a question: bounded, so a thousand questions in a row stay linear. */
const MAX_ANSWER_LOOKAHEAD = 50;

// Topic segmentation.
const HARD_GAP_MS = 60 * 60_000;
const SOFT_GAP_MS = 15 * 60_000;
const BLOCK = 6;

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/giu;
const FENCE_RE = /```([^\n`]*)\n?([\s\S]*?)(?:```|$)/g;
const MENTION_RE = /@([\p{L}\p{N}][\p{L}\p{N}._-]*)/gu;

// Detection patterns, on the normalized (straight apostrophes) sentence.
const DECISION_RES = [
  /\b(?:we|i|they|team)\s+(?:have\s+|had\s+|just\s+)?decided\b/i,
  /\bdecision\s*(?:is|was|:)/i,
  /\blet'?s\s+go\s+with\b/i,
  /\b(?:we(?:'ll| will| are|'re)?|i(?:'ll| will)?)\s+(?:go|going)\s+with\b/i,
  /\b(?:we\s+)?agreed\b/i,
  /\b(?:settled|landed)\s+on\b/i,
  /\bfinal\s+(?:answer|call|decision)\b/i,
  /\bapproved\b/i,
  // A fallback plan is a decision too: "our fallback is …", "plan B", "if X fails we roll back to Y".
  /\b(?:fall\s?back|plan\s+b|backup\s+plan|contingency)\b/i,
  /^if\b[^.?!]{0,160}\b(?:roll|switch|revert|go)\s?back\b/i,
  /\bwe(?:'ll| will)\s+(?:use|ship|keep|drop|switch to|stick with)\b/i,
  /\blet'?s\s+(?:use|ship|keep|drop|switch to|stick with)\b/i,
  // Spanish, French, German, Portuguese, Italian, Chinese, Japanese.
  /\b(?:hemos\s+decidido|decidimos|acordamos|on\s+a\s+décidé|nous\s+avons\s+décidé|wir\s+haben\s+(?:entschieden|beschlossen)|decidimos|abbiamo\s+deciso)\b/iu,
  /(?:决定|決定|同意了|決めました)/u,
];

const SELF_ACTION_RES = [
  /(?:^|[\s,;:(])(?:i'll|i will|i'm going to|i am going to|i can take|let me|i'll take|i'm on it|i am on it)\s+\p{L}/iu,
  /(?:^|[\s,;:(])(?:voy a|me encargo|je vais|je m'en occupe|ich werde|ich kümmere mich|eu vou|vou\s+\p{L}|lo faccio io)/iu,
  /(?:我来|我会|我去)/u,
];
/** "私が…ます" (I will …): a regex `私が.+ます` tries every 私が against the rest, quadratic on a run of them. */
function japaneseSelfAction(text: string): boolean {
  const first = text.indexOf('私が');
  return first !== -1 && text.lastIndexOf('ます') >= first + 3;
}
/** A URL without the sentence punctuation after it (a loop: `[.,…]+$` is quadratic on a run of them). */
function trimUrl(url: string): string {
  let end = url.length;
  while (end > 0 && '.,;:!?)]'.includes(url[end - 1] as string)) end -= 1;
  return url.slice(0, end);
}
const REQUEST_RES = [
  /\b(?:can|could|would|will)\s+(?:you|someone|somebody|anyone)\s+(?:please\s+)?\p{L}/iu,
  /^(?:please|pls)\s+\p{L}/iu,
  /\b(?:puedes|podrías|peux-tu|pourrais-tu|pouvez-vous|kannst du|könntest du|können sie|você pode)\b/iu,
];
const TODO_RE = /\b(?:TODO|FIXME)\b|\baction items?\b/;
/** Verbs that make "@name <verb>" an assignment. */
const ACTION_VERBS = new Set(
  'add book call change check clean close create deploy document draft email file finish fix follow handle investigate look merge migrate move open organize ping plan prepare publish push rebase remove reply report review revert run schedule send set ship sync take test try update upgrade verify write'.split(
    ' ',
  ),
);
const ANSWER_START_RE =
  /^(?:yes|no|yep|yeah|nope|sure|definitely|probably|it's|it is|because|agreed|ok|okay|sounds good|works for me|not yet|already|i think|i'd say|i'll|i will|i can|we can|we should|let's|sí|si|claro|oui|non|ja|nein|sim|não|是|对|不|はい|いいえ)\b/iu;
/** Who-questions ("who will…", "who owns…"), answered by someone taking it on or being named. */
const WHO_RE = /^(?:\S+\s+){0,3}?who\b/i;
/** When-questions, answered by a date. */
const WHEN_RE = /^(?:\S+\s+){0,3}?(?:when|by when|what date|what day|how long|which day)\b/i;
/** Taking something on: "I'll", "I can", "me", "on it". */
const TAKE_ON_RE = /\b(?:i'll|i will|i can|i'm on it|on it|me|mine)\b/i;

interface Sentence {
  id: number;
  message: number;
  text: string;
  norm: string;
  terms: string[];
  vector: Vector;
}

interface Prepared {
  index: number;
  sender: string;
  at: number;
  sentences: Sentence[];
  terms: string[];
  vector: Vector;
  links: string[];
  code: string[];
  reaction: boolean;
}

const quote = (s: Sentence, prepared: Prepared[]): Quote => ({
  sender: prepared[s.message]?.sender ?? '',
  text: clip(s.text),
  message: s.message,
});

/** Splits off code blocks and links, then segments what is left into sentences. */
function prepare(messages: readonly ConversationMessage[], meter: StepMeter) {
  const prepared: Prepared[] = [];
  const sentences: Sentence[] = [];
  const surfaces = new Map<string, Map<string, number>>();
  let lastAt = 0;
  messages.forEach((m, index) => {
    // Fences, links and whether it has words: a few passes over the content.
    tick(meter, 6 * (m.content.length + 1));
    const code: string[] = [];
    const text = m.content
      .replace(FENCE_RE, (_all, lang: string) => {
        code.push(lang.trim().toLowerCase().split(/\s+/)[0] || 'code');
        return '\n';
      })
      // A member mention reads as the composer showed it, "@Name", never as its markup and e-mail.
      .replace(MENTION_PATTERN, (_all, name: string) => `@${name}`);
    const links = [...new Set((text.match(URL_RE) ?? []).map(trimUrl))];
    // Timestamps may be missing or out of order; the order of the array is the conversation's.
    const at = m.at !== undefined && Number.isFinite(m.at) ? Math.max(m.at, lastAt) : lastAt;
    lastAt = at;
    const reaction = !hasWords(m.content) && m.content.trim() !== '';
    const own: Sentence[] = [];
    if (!reaction) {
      for (const raw of splitSentences(text, meter).slice(0, MAX_SENTENCES_PER_MESSAGE)) {
        // Links stay in the quoted sentence but are not words of it.
        tick(meter, 3 * (raw.length + 1));
        const words = raw.replace(URL_RE, ' ');
        if (!hasWords(words)) continue;
        const tokens = tokenize(words, meter);
        for (const t of tokens) {
          const forms = surfaces.get(t.term) ?? new Map<string, number>();
          forms.set(t.surface, (forms.get(t.surface) ?? 0) + 1);
          surfaces.set(t.term, forms);
        }
        const sentence: Sentence = {
          id: sentences.length,
          message: index,
          text: raw,
          norm: normalize(raw),
          terms: tokens.map((t) => t.term),
          vector: new Map(),
        };
        own.push(sentence);
        sentences.push(sentence);
      }
    }
    const terms = own.flatMap((s) => s.terms);
    prepared.push({
      index,
      sender: m.sender,
      at,
      sentences: own,
      terms,
      vector: new Map(),
      links,
      code,
      reaction,
    });
  });
  return { prepared, sentences, surfaces };
}

/** The most frequent way a stemmed term was written, for labels. */
function surfaceOf(term: string, surfaces: Map<string, Map<string, number>>): string {
  let best = term;
  let bestCount = -1;
  for (const [form, count] of surfaces.get(term) ?? []) {
    if (count > bestCount || (count === bestCount && form < best)) {
      best = form;
      bestCount = count;
    }
  }
  return best;
}

/** A running sum of vectors (a block of messages) whose cosine with another block is cheap. */
class Block {
  readonly sum: Vector = new Map();
  add(v: Vector, sign: 1 | -1) {
    for (const [k, x] of v) {
      const next = (this.sum.get(k) ?? 0) + sign * x;
      if (Math.abs(next) < 1e-12) this.sum.delete(k);
      else this.sum.set(k, next);
    }
  }
  cosine(other: Block): number {
    const d = dot(this.sum, other.sum);
    if (d === 0) return 0;
    return d / Math.sqrt(dot(this.sum, this.sum) * dot(other.sum, other.sum));
  }
}

/**
 * Topic boundaries between messages with words: a long silence always starts a topic; a shorter one
 * does when the blocks of messages before and after share little vocabulary; a lexical valley alone
 * (no shared words at all between two full blocks) does too. The blocks slide along the conversation
 * (TextTiling), updated by one message in and one out.
 */
function segmentTopics(content: Prepared[]): Prepared[][] {
  const topics: Prepared[][] = [];
  let current: Prepared[] = [];
  const before = new Block();
  const after = new Block();
  for (let i = 0; i < Math.min(BLOCK, content.length); i++) after.add((content[i] as Prepared).vector, 1);
  for (let i = 0; i < content.length; i++) {
    const m = content[i] as Prepared;
    const previous = content[i - 1];
    if (previous && current.length > 0) {
      const gap = m.at - previous.at;
      let boundary = gap > HARD_GAP_MS;
      if (!boundary) {
        const similarity = before.cosine(after);
        const afterCount = Math.min(BLOCK, content.length - i);
        boundary =
          (gap > SOFT_GAP_MS && similarity < 0.15) ||
          (current.length >= BLOCK && afterCount >= BLOCK && similarity === 0);
      }
      if (boundary) {
        topics.push(current);
        current = [];
      }
    }
    current.push(m);
    // Slide: message i moves from the block after the boundary to the block before it.
    after.add(m.vector, -1);
    const entering = content[i + BLOCK];
    if (entering) after.add(entering.vector, 1);
    before.add(m.vector, 1);
    const leaving = content[i - BLOCK];
    if (leaving) before.add(leaving.vector, -1);
  }
  if (current.length > 0) topics.push(current);
  // A lone message is not a topic: it joins the one before it unless a long silence separates them.
  const merged: Prepared[][] = [];
  for (const topic of topics) {
    const previous = merged.at(-1);
    const first = topic[0] as Prepared;
    const prevLast = previous?.at(-1);
    if (previous && prevLast && topic.length === 1 && first.at - prevLast.at <= HARD_GAP_MS)
      previous.push(first);
    else merged.push(topic);
  }
  return merged;
}

/** LexRank: PageRank over the cosine-similarity graph (edges above a threshold, weighted). */
export function lexRank(vectors: Vector[], threshold = 0.1, damping = 0.85, iterations = 50): number[] {
  const n = vectors.length;
  if (n === 0) return [];
  const edges: { to: number; w: number }[][] = Array.from({ length: n }, () => []);
  const outWeight = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = dot(vectors[i] as Vector, vectors[j] as Vector);
      if (w < threshold) continue;
      (edges[i] as { to: number; w: number }[]).push({ to: j, w });
      (edges[j] as { to: number; w: number }[]).push({ to: i, w });
      outWeight[i] = (outWeight[i] as number) + w;
      outWeight[j] = (outWeight[j] as number) + w;
    }
  }
  let score = new Array<number>(n).fill(1 / n);
  for (let iter = 0; iter < iterations; iter++) {
    // Sentences linked to nothing spread their score evenly (the dangling-node rule).
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0) dangling += score[i] as number;
    const next = new Array<number>(n).fill((1 - damping) / n + (damping * dangling) / n);
    for (let i = 0; i < n; i++) {
      const out = outWeight[i] as number;
      if (out === 0) continue;
      const share = (damping * (score[i] as number)) / out;
      for (const e of edges[i] as { to: number; w: number }[])
        next[e.to] = (next[e.to] as number) + share * e.w;
    }
    let delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs((next[i] as number) - (score[i] as number));
    score = next;
    if (delta < 1e-7) break;
  }
  return score;
}

/** MMR: repeatedly the candidate with the best relevance minus its similarity to what is chosen. */
function mmr(
  candidates: { sentence: Sentence; relevance: number }[],
  chosen: Sentence[],
  count: number,
  lambda = 0.7,
  redundant = 0.5,
): Sentence[] {
  const picked: Sentence[] = [];
  const pool = [...candidates];
  while (picked.length < count && pool.length > 0) {
    let bestIndex = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    pool.forEach((c, i) => {
      let maxSim = 0;
      for (const s of [...chosen, ...picked]) maxSim = Math.max(maxSim, dot(c.sentence.vector, s.vector));
      if (maxSim > redundant) return;
      const score = lambda * c.relevance - (1 - lambda) * maxSim;
      if (score > bestScore) {
        bestScore = score;
        bestIndex = i;
      }
    });
    if (bestIndex < 0) break;
    const [best] = pool.splice(bestIndex, 1);
    if (best) picked.push(best.sentence);
  }
  return picked;
}

const isQuestion = (s: Sentence) => /[?？]\s*["')\]]*$/.test(s.text) || s.text.startsWith('¿');

function classifyAction(
  s: Sentence,
  meter: StepMeter,
): { assignee?: string; request?: boolean; todo?: boolean } | undefined {
  const text = s.norm;
  // Each pattern below reads the sentence once.
  tick(meter, (REQUEST_RES.length + SELF_ACTION_RES.length + 4) * (text.length + 1));
  const mentions = [...text.matchAll(MENTION_RE)].map((m) => `@${m[1]}`);
  const assignee = mentions[0];
  const withAssignee = assignee ? { assignee } : {};
  if (REQUEST_RES.some((re) => re.test(text))) return { ...withAssignee, request: true };
  if (TODO_RE.test(text)) return { ...withAssignee, todo: true };
  if (SELF_ACTION_RES.some((re) => re.test(text)) || japaneseSelfAction(text)) return {};
  // Once per sentence, not once per mention in it.
  const polite = text.toLowerCase().includes('please');
  for (const m of text.matchAll(/@([\p{L}\p{N}][\p{L}\p{N}._-]*)[,:]?\s+(?:please\s+|pls\s+)?(\p{L}+)/gu)) {
    tick(meter);
    const verb = (m[2] ?? '').toLowerCase();
    if (ACTION_VERBS.has(verb) || polite) return { assignee: `@${m[1]}`, request: true };
  }
  return undefined;
}

/**
 * A question counts as answered when someone else soon replies on its subject or with a yes/no (or
 * "I think…", "Agreed"), a who-question when someone takes it on or is named, a when-question when a
 * reply has a date.
 */
function isAnswered(
  question: Sentence,
  asker: string,
  content: Prepared[],
  position: number,
  names: readonly string[],
  meter: StepMeter,
): boolean {
  let othersSeen = 0;
  const who = WHO_RE.test(question.norm);
  const when = WHEN_RE.test(question.norm);
  const last = Math.min(content.length - 1, position + MAX_ANSWER_LOOKAHEAD);
  for (let j = position + 1; j <= last && othersSeen < 8; j++) {
    tick(meter);
    const reply = content[j] as Prepared;
    if (reply.sender === asker) continue;
    othersSeen++;
    if (dot(question.vector, reply.vector) >= 0.2) return true;
    if (othersSeen > 3) continue;
    const first = reply.sentences[0];
    if (first && ANSWER_START_RE.test(first.norm.trim())) return true;
    for (const r of reply.sentences.slice(0, 3)) {
      tick(meter, 3 * (r.norm.length + 1));
      if (who && (TAKE_ON_RE.test(r.norm) || names.some((n) => n !== reply.sender && r.norm.includes(n))))
        return true;
      if (when && hasDate(r.norm)) return true;
    }
  }
  return false;
}

/** The sentence of an earlier message by someone else that a short reply answers: its last question, else its last sentence with content. */
function answeredSentence(
  content: Prepared[],
  position: number,
  replier: string,
  meter: StepMeter,
): { sentence: Sentence; sender: string } | undefined {
  for (let j = position - 1; j >= Math.max(0, position - MAX_ANSWERED_LOOKBACK); j--) {
    tick(meter);
    const before = content[j] as Prepared;
    if (before.sender === replier) continue;
    const withContent = before.sentences.filter((x) => x.terms.length >= 2);
    const sentence = withContent.findLast((x) => isQuestion(x)) ?? withContent.at(-1);
    return sentence ? { sentence, sender: before.sender } : undefined;
  }
  return undefined;
}

/** "Hana, could you …": the participant a request starts by addressing, by first name. */
function addressee(norm: string, names: readonly string[], asker: string): string | undefined {
  const text = norm.trim();
  const first = (
    /^(\p{Lu}\p{L}+)\s*,/u.exec(text)?.[1] ?? /,\s*(\p{Lu}\p{L}+)\s*[?.!]*$/u.exec(text)?.[1]
  )?.toLowerCase();
  if (!first) return undefined;
  const fits = names.filter((n) => n !== asker && n.toLowerCase().split(/\s+/)[0] === first);
  return fits.length === 1 ? fits[0] : undefined;
}

/** A participant named by an @handle ("@carol" → "Carol White"), when exactly one fits. */
function resolveHandle(handle: string, names: readonly string[]): string {
  const h = handle.replace(/^@/, '').toLowerCase();
  const fits = names.filter((n) => {
    const lower = n.toLowerCase();
    return lower.replace(/\s+/g, '') === h || lower.split(/\s+/)[0] === h || lower.replace(/\s+/g, '.') === h;
  });
  return fits.length === 1 ? (fits[0] as string) : `@${h}`;
}

export function analyzeConversation(
  messages: readonly ConversationMessage[],
  meter: StepMeter = stepMeter(),
): ConversationAnalysis {
  const { prepared, sentences, surfaces } = prepare(messages, meter);

  const idf = inverseDocumentFrequencies(sentences.map((s) => s.terms));
  for (const s of sentences) s.vector = tfidf(s.terms, idf);
  for (const p of prepared) p.vector = tfidf(p.terms, idf);

  const counts = new Map<string, number>();
  for (const p of prepared) counts.set(p.sender, (counts.get(p.sender) ?? 0) + 1);
  const participants = [...counts]
    .map(([name, n]) => ({ name, messages: n }))
    .sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name, 'en'));

  const content = prepared.filter((p) => p.sentences.length > 0);
  const positionOf = new Map(content.map((p, i) => [p.index, i]));

  // Decisions, questions and action items, each sentence in at most one of them; each decision and
  // action item also as a self-contained statement (issue 19).
  const names = participants.map((p) => p.name);
  const decisions: Quote[] = [];
  const openQuestions: Quote[] = [];
  const actionItems: ActionItem[] = [];
  const used = new Set<number>();
  for (const s of sentences) {
    const sender = prepared[s.message]?.sender ?? '';
    const position = positionOf.get(s.message) ?? 0;
    tick(meter, (DECISION_RES.length + 1) * (s.norm.length + 1));
    if (isBareAgreement(s.norm, meter)) {
      // "Agreed." is a decision about what it answers; alone it says nothing.
      used.add(s.id);
      const answered = answeredSentence(content, position, sender, meter);
      if (answered)
        decisions.push({
          ...quote(s, prepared),
          statement: agreementStatement(sender, answered.sender, answered.sentence.norm),
        });
      continue;
    }
    if (isBareTakeOn(s.norm, meter)) {
      // "On it." takes on the request it answers: that item gets its assignee.
      used.add(s.id);
      const request = actionItems.findLast(
        (a) =>
          a.sender !== sender &&
          a.message < s.message &&
          position - (positionOf.get(a.message) ?? 0) <= MAX_ANSWERED_LOOKBACK,
      );
      if (request) {
        request.assignee = sender;
        request.statement = requestStatement(request.text, request.sender, sender);
        continue;
      }
      const answered = answeredSentence(content, position, sender, meter);
      if (answered)
        actionItems.push({
          ...quote(s, prepared),
          statement: `${sender} will take on: ${restate(answered.sentence.norm, answered.sender, meter)}`,
        });
      continue;
    }
    if (!isQuestion(s) && DECISION_RES.some((re) => re.test(s.norm))) {
      decisions.push({ ...quote(s, prepared), statement: restate(clip(s.norm, 240), sender, meter) });
      used.add(s.id);
      continue;
    }
    const action = classifyAction(s, meter);
    if (action && !action.request && !action.todo) {
      // "I'll have it ready by Thursday" from whoever a request just went to: that request is theirs.
      const request = actionItems.findLast(
        (a) =>
          a.sender !== sender &&
          a.message < s.message &&
          position - (positionOf.get(a.message) ?? 0) <= 2 &&
          (a.assignee === undefined || a.assignee === sender),
      );
      if (request) {
        request.assignee = sender;
        request.statement = requestStatement(request.text, request.sender, sender);
        const requestSentence = request.sentence === undefined ? undefined : sentences[request.sentence];
        if (requestSentence && dot(requestSentence.vector, s.vector) >= 0.25) {
          used.add(s.id);
          continue;
        }
      }
    }
    if (action) {
      const assignee = action.assignee
        ? resolveHandle(action.assignee, names)
        : action.request
          ? addressee(s.norm, names, sender)
          : undefined;
      const statement = action.request
        ? requestStatement(clip(s.norm, 240), sender, assignee)
        : action.todo
          ? `To do (noted by ${sender}): ${clip(s.norm, 240).replace(/^\s*(?:TODO|FIXME)\s*[:-]?\s*/, '')}`
          : restate(clip(s.norm, 240), sender, meter);
      actionItems.push({
        ...quote(s, prepared),
        sentence: s.id,
        ...(assignee ? { assignee } : {}),
        statement,
      });
      used.add(s.id);
      continue;
    }
    if (isQuestion(s) && s.terms.length >= 2) {
      used.add(s.id);
      if (!isAnswered(s, sender, content, position, names, meter)) openQuestions.push(quote(s, prepared));
    }
  }

  // Dates and deadlines that no decision or action item carries, as statements.
  const dates: Quote[] = [];
  for (const s of sentences) {
    if (used.has(s.id) || isQuestion(s) || s.terms.length < 2) continue;
    if (!hasDate(s.norm, meter)) continue;
    used.add(s.id);
    dates.push({
      ...quote(s, prepared),
      statement: restate(clip(s.norm, 240), prepared[s.message]?.sender ?? '', meter),
    });
  }

  // Topics, biggest first for the choice, shown in the order they happened.
  const segments = segmentTopics(content);
  const messageIdf = inverseDocumentFrequencies(content.map((p) => p.terms));
  const ranked = segments
    .map((segment, order) => ({
      segment,
      order,
      weight: segment.length * new Set(segment.map((p) => p.sender)).size,
    }))
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, MAX_TOPICS)
    .sort((a, b) => a.order - b.order);

  const topics: Topic[] = [];
  const perTopicCandidates: { sentence: Sentence; relevance: number }[][] = [];
  for (const { segment } of ranked) {
    const tf = termCounts(segment.flatMap((p) => p.terms));
    const label = [...tf]
      .map(([term, n]) => ({ term, score: n * (messageIdf.get(term) ?? 1) }))
      .filter((t) => countOf(t.term, tf) >= 2 || segment.length <= 2)
      .sort((a, b) => b.score - a.score || a.term.localeCompare(b.term, 'en'))
      .slice(0, 3)
      .map((t) => surfaceOf(t.term, surfaces));
    topics.push({
      label,
      participants: [...new Set(segment.map((p) => p.sender))],
      messageCount: segment.length,
      first: segment[0]?.index ?? 0,
      last: segment.at(-1)?.index ?? 0,
    });

    // Candidates: sentences with enough content; on a huge topic, the heaviest ones first.
    let candidates = segment
      .flatMap((p) => p.sentences)
      .filter((s) => s.terms.length >= 3 && !used.has(s.id));
    const seen = new Set<string>();
    candidates = candidates.filter((s) => {
      const key = s.norm.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (candidates.length > MAX_CANDIDATES_PER_TOPIC) {
      const weight = (s: Sentence) => {
        let sum = 0;
        for (const t of new Set(s.terms)) sum += (tf.get(t) ?? 0) * (idf.get(t) ?? 1);
        return sum / Math.sqrt(s.terms.length);
      };
      candidates = candidates
        .map((s) => ({ s, w: weight(s) }))
        .sort((a, b) => b.w - a.w || a.s.id - b.s.id)
        .slice(0, MAX_CANDIDATES_PER_TOPIC)
        .map((x) => x.s)
        .sort((a, b) => a.id - b.id);
    }
    const scores = lexRank(candidates.map((s) => s.vector));
    const max = Math.max(...scores, 0) || 1;
    perTopicCandidates.push(
      candidates
        .map((sentence, i) => ({ sentence, relevance: (scores[i] ?? 0) / max }))
        .sort((a, b) => b.relevance - a.relevance || a.sentence.id - b.sentence.id),
    );
  }

  // Key points: the best sentence of each topic, then MMR over everything left for the rest.
  const chosen: Sentence[] = [];
  for (const list of perTopicCandidates) chosen.push(...mmr(list, chosen, 1));
  const rest = perTopicCandidates.flat().filter((c) => !chosen.includes(c.sentence));
  rest.sort((a, b) => b.relevance - a.relevance || a.sentence.id - b.sentence.id);
  chosen.push(...mmr(rest, chosen, Math.max(0, MAX_KEY_POINTS - chosen.length)));
  const keyPoints = chosen
    .slice(0, MAX_KEY_POINTS)
    .sort((a, b) => a.id - b.id)
    .map((s) => quote(s, prepared));

  const links: { url: string; sender: string }[] = [];
  const seenLinks = new Set<string>();
  const code: { sender: string; language: string }[] = [];
  for (const p of prepared) {
    for (const url of p.links) {
      if (seenLinks.has(url)) continue;
      seenLinks.add(url);
      links.push({ url, sender: p.sender });
    }
    for (const language of p.code) code.push({ sender: p.sender, language });
  }

  return {
    messageCount: messages.length,
    participants,
    reactions: prepared.filter((p) => p.reaction).length,
    topics,
    keyPoints,
    decisions,
    openQuestions,
    actionItems,
    dates,
    links,
    code,
  };
}

const countOf = (term: string, tf: Vector) => tf.get(term) ?? 0;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function names(list: string[]): string {
  if (list.length <= MAX_NAMES) return list.join(', ');
  return `${list.slice(0, MAX_NAMES).join(', ')} and ${list.length - MAX_NAMES} more`;
}

function section(title: string, lines: string[], max: number): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, max).map((l) => `- ${l}`);
  if (lines.length > max) shown.push(`- …and ${lines.length - max} more`);
  return ['', `${title}:`, ...shown];
}

/** The analysis as short text: a header line, then titled sections of `- ` bullet lines. */
export function renderSummary(a: ConversationAnalysis): string {
  if (a.messageCount === 0) return '';
  const people = a.participants.map((p) => `${p.name} (${p.messages})`);
  const reactions = a.reactions > 0 ? `, including ${plural(a.reactions, 'emoji-only reaction')}` : '';
  const lines = [
    `${plural(a.messageCount, 'message')} from ${plural(a.participants.length, 'participant')}${reactions}: ${names(people)}.`,
  ];
  const topicLines = a.topics
    .filter((t) => t.label.length > 0 && t.messageCount > 1)
    .map((t) => `${t.label.join(', ')} (${plural(t.messageCount, 'message')}; ${names(t.participants)})`);
  if (topicLines.length > 1) lines.push(...section('Main topics', topicLines, MAX_TOPICS));
  lines.push(
    ...section(
      'Key points',
      a.keyPoints.map((q) => `${q.sender}: ${q.text}`),
      MAX_KEY_POINTS,
    ),
  );
  const said = (q: Quote) => q.statement ?? `${q.sender}: ${q.text}`;
  lines.push(...section('Decisions', a.decisions.map(said), MAX_LISTED));
  lines.push(...section('Action items', a.actionItems.map(said), MAX_ACTIONS));
  lines.push(...section('Dates and deadlines', a.dates.map(said), MAX_DATES));
  lines.push(
    ...section(
      'Open questions',
      a.openQuestions.map((q) => `${q.sender}: ${q.text}`),
      MAX_LISTED,
    ),
  );
  lines.push(
    ...section(
      'Links shared',
      a.links.map((l) => `${l.url} (${l.sender})`),
      MAX_LISTED,
    ),
  );
  if (a.code.length > 0) {
    const languages = [...new Set(a.code.map((c) => c.language))].join(', ');
    const by = names([...new Set(a.code.map((c) => c.sender))]);
    lines.push('', `Code: ${plural(a.code.length, 'snippet')} shared (${languages}) by ${by}.`);
  }
  if (lines.length === 1) lines.push('', 'No text beyond reactions to summarize.');
  return lines.join('\n');
}

/** The built-in engine: analysis, then text. `''` for an empty conversation. */
export function summarizeConversation(messages: readonly ConversationMessage[]): string {
  return renderSummary(analyzeConversation(messages));
}
