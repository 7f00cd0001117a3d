import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { PASSWORD_MIN_LENGTH } from './accounts.ts';

/** zxcvbn's scale is 0–4; 3 ("safely unguessable: moderate protection from offline attacks") is the floor. */
export const PASSWORD_MIN_SCORE = 3;

let checker: Promise<ZxcvbnFactory> | undefined;

/**
 * The dictionaries (about 1.5 MB of common passwords, names and words) load on first use, through
 * dynamic imports: the web bundles them as their own chunk, fetched only by a page that checks a
 * password, and the server pays for them once.
 */
function loadChecker(): Promise<ZxcvbnFactory> {
  checker ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
      }),
  );
  checker.catch(() => {
    checker = undefined;
  });
  return checker;
}

/**
 * Why this password should not be used, or null when it is fine: at least PASSWORD_MIN_LENGTH
 * characters and a zxcvbn score of at least PASSWORD_MIN_SCORE, judged with the person's own
 * name and address as extra dictionary words (`userInputs`). The same rule on the server (signup,
 * reset, change) and in the browser (the reason shown under the field).
 */
export async function passwordProblem(password: string, userInputs: string[] = []): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  const zxcvbn = await loadChecker();
  // zxcvbn's cost grows with length; past 100 characters the rest adds nothing to its verdict.
  const inputs = userInputs
    .flatMap((s) => [s, ...s.split(/[@.\s_+-]+/)])
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length >= 3);
  const result = zxcvbn.check(password.slice(0, 100), inputs);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const { warning, suggestions } = result.feedback;
  const reason = [warning, suggestions[0]].filter((s): s is string => Boolean(s)).join(' ');
  return `This password is too easy to guess.${reason ? ` ${reason}` : ' Add more words or characters.'}`;
}
