import { EMOJIS } from './emoji-data.ts';
import type { TextEdit } from './format.ts';

/**
 * `:shortcode:` completion in the composer as pure functions: the `:query` the caret is in, the
 * emojis whose shortcode starts with it (shortest first, so `:smi` offers 😄 `smile` first), and the
 * edit that replaces the query with the emoji. A shortcode is the emoji's first search word unless
 * the common (Slack/GitHub) one differs.
 */

export interface EmojiOption {
  kind: 'emoji';
  emoji: string;
  code: string;
}

const COMMON: Record<string, string> = {
  '👍': '+1',
  '👎': '-1',
  '❤️': 'heart',
  '😍': 'heart_eyes',
  '🤩': 'star_struck',
  '🙂': 'slightly_smiling_face',
  '🙃': 'upside_down_face',
  '🥰': 'smiling_face_with_hearts',
  '🤣': 'rofl',
  '😅': 'sweat_smile',
  '😶': 'no_mouth',
  '🙄': 'eye_roll',
  '🤯': 'exploding_head',
  '🥳': 'partying_face',
  '😮': 'open_mouth',
  '🤚': 'raised_back_of_hand',
  '✋': 'raised_hand',
  '✊': 'fist',
  '🙌': 'raised_hands',
  '👈': 'point_left',
  '👉': 'point_right',
  '👆': 'point_up',
  '👇': 'point_down',
  '🤞': 'crossed_fingers',
  '🤟': 'love_you',
  '🤘': 'metal',
  '🥇': 'first_place',
  '💯': '100',
  '✅': 'white_check_mark',
  '❌': 'x',
  '📈': 'chart_up',
  '📉': 'chart_down',
  '👋🏽': 'wave_medium',
};

export const SHORTCODES: readonly EmojiOption[] = EMOJIS.map(([emoji, words], index) => ({
  kind: 'emoji' as const,
  emoji,
  code: COMMON[emoji] ?? words.split(' ')[0] ?? `emoji${index}`,
}));

export const SHORTCODE_OPTIONS_MAX = 8;

/** The `:query` ending at the caret: `:` at the start or after a space, then 2–30 shortcode characters. */
export function activeShortcode(value: string, caret: number): { start: number; query: string } | null {
  const match = /(^|[\s(]):([a-z0-9_+-]{2,30})$/i.exec(value.slice(0, caret));
  if (!match) return null;
  const query = (match[2] ?? '').toLowerCase();
  return { start: caret - query.length - 1, query };
}

/** Emojis whose shortcode starts with the query, shortest shortcode first (then the picker's order). */
export function matchShortcodes(query: string): EmojiOption[] {
  const q = query.toLowerCase();
  return SHORTCODES.map((option, order) => ({ option, order }))
    .filter(({ option }) => option.code.startsWith(q))
    .sort((a, b) => a.option.code.length - b.option.code.length || a.order - b.order)
    .slice(0, SHORTCODE_OPTIONS_MAX)
    .map(({ option }) => option);
}

/** Replaces `:query` (from `start` to the caret) with the emoji. */
export function insertShortcode(value: string, start: number, caret: number, option: EmojiOption): TextEdit {
  const next = `${value.slice(0, start)}${option.emoji}${value.slice(caret)}`;
  const at = start + option.emoji.length;
  return { value: next, selectionStart: at, selectionEnd: at };
}
