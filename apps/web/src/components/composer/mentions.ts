import { mentionMarkup } from '@cohort/shared/notifications';
import type { TextEdit } from './format.ts';

/**
 * The composer's @mention autocomplete as pure functions: which `@query` the caret is in, which
 * members match it, and the edit that puts the chosen mention in (docs/notifications.md: members as
 * `@[Name](email)`, everyone as `@channel`).
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

/** Replaces `@query` (from `start` to the caret) with the option's markup and a space. */
export function insertMention(value: string, start: number, caret: number, option: MentionOption): TextEdit {
  const markup =
    option.kind === 'channel' ? '@channel' : mentionMarkup(option.member.name, option.member.email);
  const next = `${value.slice(0, start)}${markup} ${value.slice(caret)}`;
  const at = start + markup.length + 1;
  return { value: next, selectionStart: at, selectionEnd: at };
}
