import { z } from 'zod';

/**
 * Text the database can store. PostgreSQL's text cannot hold U+0000, and a lone UTF-16 surrogate is
 * not Unicode at all (drivers either fail or silently turn it into U+FFFD). Both are refused at the
 * edge with a 400 naming the field, on both sides, instead of failing in the database as a 500.
 */

export const UNSTORABLE_TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** A string schema that refuses unstorable text; every free-text field starts from this. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, { message: UNSTORABLE_TEXT, abort: true });

/**
 * The path (`a.b.0`) of the first string or key anywhere in a parsed JSON value that cannot be
 * stored, or null. Bounded by depth so a deeply nested body cannot make it recurse without end.
 */
export function findUnstorableText(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path.join('.') || 'body';
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const at = [...path, String(key)];
    if (typeof key === 'string' && !isStorableText(key)) return at.join('.');
    const found = findUnstorableText(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
