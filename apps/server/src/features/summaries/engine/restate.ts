import { type StepMeter, tick } from './text.ts';

/**
 * Turns a chat sentence into one that stands on its own in a summary (issue 19): "I"/"we" become the
 * speaker's name, leading filler ("OK, ") goes, a request becomes "Name to do X (asked by …)", and a
 * bare "Agreed." takes its object from the message it answers. English only; other languages are
 * quoted as written with their speaker. Every regular expression here is anchored or reads a word at
 * a time, so the work stays linear in the sentence (issue 17); callers tick the meter per pass.
 */

/** Leading interjections followed by punctuation ("OK, ", "Great. ", "Sounds good! "). */
const FILLER_RE =
  /^(?:(?:ok(?:ay)?|alright|all right|great|good|cool|sure|yes|yeah|yep|so|then|fine|perfect|right|sounds good|thanks|thank you|nice|hm+|well|agreed|good point|no|nope|reminder)\s*[,.!:;—–-]+\s*)+/i;

/** A sentence written in English (or at least in Latin letters with English function words). */
const ENGLISH_RE = /\b(?:i|i'll|i'm|we|we'll|let's|the|to|and|can|will|you|is|are|it|of|on|for)\b/i;

export function stripFiller(text: string): string {
  return text.replace(FILLER_RE, '');
}

const capitalize = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
const endSentence = (s: string) => {
  const t = s.trim().replace(/[\s,;:—–-]+$/, '');
  return /[.!?…]$/.test(t) ? t.replace(/[!?]+$/, '.') : `${t}.`;
};

/** Verbs whose third person is made by adding -s after a resolved "I" ("I need" → "Ann needs"). */
const PRESENT_VERBS = new Set(
  'agree ask expect feel guess handle hope know like need own plan prefer propose see send suggest take think vote want'.split(
    ' ',
  ),
);

/**
 * "I"/"we" (and their forms) as the speaker: "I'll send" → "Ann will send", "we agreed" → "Ann and
 * the team agreed", "let's use X" → "Ann and the team will use X". One pass over the words.
 */
export function resolvePronouns(text: string, speaker: string, meter?: StepMeter): string {
  if (meter) tick(meter, text.length + 1);
  const team = `${speaker} and the team`;
  let out = text.replace(
    /\b(let'?s|let us|let me|i'm|i am|i'll|i will|i've|i have|i'd|i|we're|we'll|we've|we'd|we|my|mine|myself|ourselves|our|ours|us|me)\b(\s+(\p{L}+))?/giu,
    (all: string, word: string, rest: string | undefined, next: string | undefined) => {
      const w = word.toLowerCase();
      const tail = rest ?? '';
      // "I" is only the pronoun in capitals; "i" in the middle of words never matches (\b).
      if (w === 'i' && word !== 'I' && !next) return all;
      // "US" in capitals is a country, "us" the pronoun.
      if (w === 'us' && word === 'US') return all;
      switch (w) {
        case "let's":
        case 'lets':
        case 'let us':
          return `${team} will${tail}`;
        case 'let me':
          return `${speaker} will${tail}`;
        case "i'm":
        case 'i am':
          return `${speaker} is${tail}`;
        case "i'll":
        case 'i will':
          return `${speaker} will${tail}`;
        case "i've":
        case 'i have':
          return `${speaker} has${tail}`;
        case "i'd":
          return `${speaker} would${tail}`;
        case 'i': {
          const verb = next?.toLowerCase();
          if (verb && PRESENT_VERBS.has(verb)) return `${speaker} ${verb}s`;
          return `${speaker}${tail}`;
        }
        case "we're":
          return `${team} are${tail}`;
        case "we'll":
          return `${team} will${tail}`;
        case "we've":
          return `${team} have${tail}`;
        case "we'd":
          return `${team} would${tail}`;
        case 'we':
          return `${team}${tail}`;
        case 'my':
        case 'mine':
          return `${speaker}'s${tail}`;
        case 'myself':
        case 'me':
          return `${speaker}${tail}`;
        case 'ourselves':
          return `themselves${tail}`;
        case 'our':
        case 'ours':
          return `the team's${tail}`;
        case 'us':
          return `the team${tail}`;
        default:
          return all;
      }
    },
  );
  // "Ann and the team and the team" cannot happen; "the team's" after a name reads fine.
  out = out.replace(/\s{2,}/g, ' ');
  return out;
}

/** The sentence as a standalone statement by `speaker` (English), or `speaker: text` otherwise. */
export function restate(text: string, speaker: string, meter?: StepMeter): string {
  const clean = stripFiller(text.trim());
  if (!ENGLISH_RE.test(clean)) return `${speaker}: ${clean}`;
  const resolved = capitalize(endSentence(resolvePronouns(clean, speaker, meter)));
  return resolved.includes(speaker) ? resolved : `${resolved.replace(/\.$/, '')} (${speaker}).`;
}

/** Words a bare agreement is made of; one of STRONG must be there ("OK." alone agrees to nothing). */
const AGREE_WORDS = new Set(
  "ok okay yes yeah yep sure agreed agree i we sounds sound good great deal done fine works work for me let's lets let us do it that this makes sense approved approve go lgtm perfect then so all right alright totally fully +1 from my side on board with".split(
    ' ',
  ),
);
const STRONG = new Set([
  'agreed',
  'agree',
  'approved',
  'approve',
  'deal',
  'lgtm',
  'sounds',
  'works',
  'do',
  'go',
  '+1',
  'board',
]);

/** "Agreed.", "Sounds good, let's do that!", "Works for me." — agreement without its own object. */
export function isBareAgreement(norm: string, meter?: StepMeter): boolean {
  if (meter) tick(meter, norm.length + 1);
  if (norm.length > 60) return false;
  const words = norm.toLowerCase().match(/[\p{L}'+]+/gu) ?? [];
  return words.length > 0 && words.every((w) => AGREE_WORDS.has(w)) && words.some((w) => STRONG.has(w));
}

/** "I'm on it.", "I'll do it.", "Will do." — taking on a task named in the message before. */
export function isBareTakeOn(norm: string, meter?: StepMeter): boolean {
  if (meter) tick(meter, norm.length + 1);
  if (norm.length > 40) return false;
  const words = norm.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  const vocab = new Set(
    "i i'll i'm will do it that this on take handle can sure ok okay yes yep me let mine got".split(' '),
  );
  return (
    words.length > 0 &&
    words.every((w) => vocab.has(w)) &&
    words.some((w) => /^(?:on|take|handle|do|mine|got)$/.test(w))
  );
}

/** What a proposal proposes, as a verb phrase when it is one: "Should we move X?" → "move X". */
export function proposalOf(text: string): { phrase: string; verbPhrase: boolean } {
  let t = stripFiller(text.trim()).replace(/[?.!\s]+$/, '');
  const verbPhrase =
    /^(?:(?:should|shall|can|could) we|how about we|what if we|why don'?t we|let'?s|(?:i|we) (?:propose|suggest)(?: that)?(?: we)?|we (?:should|could|can)|maybe (?:we (?:should|could) )?|i think we should|how about|what about)\s+/i;
  const match = verbPhrase.exec(t);
  if (match) {
    t = t.slice(match[0].length);
    return {
      phrase: t,
      verbPhrase: /^(?:should|shall|can|could|how about we|what if|why|let|i|we|maybe)/i.test(match[0]),
    };
  }
  return { phrase: t, verbPhrase: false };
}

/** "Ann agreed to Bob's proposal": both names and the proposal as one sentence. */
export function agreementStatement(agreer: string, proposer: string, proposal: string): string {
  const { phrase, verbPhrase } = proposalOf(proposal);
  const who = agreer === proposer ? agreer : `${agreer} and ${proposer}`;
  const what = resolvePronouns(phrase, proposer);
  return endSentence(verbPhrase ? `${who} agreed to ${what}` : `${who} agreed: ${what}`);
}

/** "@carol can you review the PR?" → "Carol White to review the PR (asked by Alice Smith)." */
export function requestStatement(text: string, asker: string, assignee: string | undefined): string {
  let t = stripFiller(text.trim());
  // The addressee in front: "@carol ", "@carol, ", "Bob, ".
  t = t.replace(
    /^(?:@[\p{L}\p{N}._-]+(?:\s+\p{Lu}\p{L}*){0,2}|\p{Lu}\p{L}*)[,:]?\s+(?=(?:can|could|would|will|please|pls)\b)/u,
    '',
  );
  t = t.replace(/^(?:can|could|would|will)\s+(?:you|someone|somebody|anyone)\s+(?:please\s+)?/i, '');
  t = t.replace(/^(?:please|pls)\s+/i, '');
  t = t.replace(/[?!.\s]+$/, '');
  t = t.replace(/\s+please$/i, '');
  // A trailing vocative: "… for tomorrow's review, Priya".
  t = t.replace(/,\s*(?:@[\p{L}\p{N}._-]+|\p{Lu}\p{L}+)$/u, '');
  if (!ENGLISH_RE.test(t) && !/^[\p{Ll}]/u.test(t)) return `${asker}: ${text.trim()}`;
  const what = resolvePronouns(t, asker).replace(/\byou\b/gi, assignee ?? 'them');
  return `${assignee ?? 'Someone'} to ${what} (asked by ${asker}).`;
}

/**
 * Dates and deadlines: weekdays, month days, ISO and numeric dates, "tomorrow", "next week", "end of
 * the month", "EOD", quarters, times of day, "deadline"/"due". One pass; no nested quantifiers.
 */
const DATE_RE =
  /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\b|\b(?:tomorrow|tonight|today|this (?:week|weekend|month|sprint|quarter)|next (?:week|month|sprint|quarter|year))\b|\bend of (?:the )?(?:day|week|month|quarter|sprint|year)\b|\b(?:eod|eow|eom)\b|\bq[1-4]\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b(?:deadline|due (?:date|on|by)|target date|launch date|release date|go-live)\b|\bin (?:two|three|four|\d+) (?:days|weeks|months)\b/i;

export function hasDate(text: string, meter?: StepMeter): boolean {
  if (meter) tick(meter, 2 * (text.length + 1));
  return DATE_RE.test(text);
}
