import { mentionMarkup } from '@cohort/shared/notifications.constants';
import type { TextEdit } from './format.ts';

/**
 * The composer's @mention autocomplete as pure functions: which `@query` the caret is in, which
 * members match it, and the edit that puts the chosen mention in. The composer shows a picked member
 * as a readable `@Name`; `expandMentions` turns it into the markup the message carries when it is
 * sent (docs/notifications.md: members as `@[Name](email)`, everyone as `@channel`).
 */

export interface MentionCandidate {
  id: string;
  name: string;
  email: string;
}

export type MentionOption = { kind: 'member'; member: MentionCandidate } | { kind: 'channel' };

export const MENTION_OPTIONS_MAX = 8;

/** The `@query` that ends at the caret: `@` at a word start, then up to 40 name characters. */
export function activeMention(value: string, caret: number): { start: number; query: string } | null {
  const before = value.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}_.@])@([\p{L}\p{N}._-]{0,40})$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** Members whose name (any word of it) or e-mail starts with the query, then `@channel`. */
export function matchMentions(
  query: string,
  candidates: readonly MentionCandidate[],
  channel: boolean,
): MentionOption[] {
  const q = query.toLowerCase();
  const members = candidates
    .filter((c) => {
      const words = [...c.name.toLowerCase().split(/\s+/), c.name.toLowerCase(), c.email.toLowerCase()];
      return words.some((w) => w.startsWith(q));
    })
    .slice(0, MENTION_OPTIONS_MAX)
    .map((member): MentionOption => ({ kind: 'member', member }));
  const all: MentionOption[] =
    channel && 'channel'.startsWith(q) ? [...members, { kind: 'channel' }] : members;
  return all.slice(0, MENTION_OPTIONS_MAX);
}

export const optionLabel = (o: MentionOption) => (o.kind === 'channel' ? '@channel' : o.member.name);

/** The readable form a picked member takes in the composer: `@Name` (no `]` or line break). */
export function mentionLabel(member: MentionCandidate): string {
  const markup = mentionMarkup(member.name, member.email);
  return `@${markup.slice(2, markup.indexOf(']('))}`;
}

/** Replaces `@query` (from `start` to the caret) with the readable `@Name` (or `@channel`) and a space. */
export function insertMention(value: string, start: number, caret: number, option: MentionOption): TextEdit {
  const label = option.kind === 'channel' ? '@channel' : mentionLabel(option.member);
  const next = `${value.slice(0, start)}${label} ${value.slice(caret)}`;
  const at = start + label.length + 1;
  return { value: next, selectionStart: at, selectionEnd: at };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text to send: every `@Name` of a member picked from the list (as a word of its own) becomes
 * `@[Name](email)`, so the mention notifies. Longer names first: "@Ann Able" is not read as "@Ann".
 */
export function expandMentions(text: string, picked: readonly MentionCandidate[]): string {
  if (picked.length === 0) return text;
  const byLabel = new Map(picked.map((m) => [mentionLabel(m), m]));
  const labels = [...byLabel.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const re = new RegExp(`(^|[^\\p{L}\\p{N}_.@])(${labels.join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
  return text.replace(re, (_all, before: string, label: string) => {
    const member = byLabel.get(label) as MentionCandidate;
    return `${before}${mentionMarkup(member.name, member.email)}`;
  });
}
