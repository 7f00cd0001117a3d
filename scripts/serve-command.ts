import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The words of a knob or a command line (split at whitespace; none when unset). */
export const wordsOf = (text = ''): string[] => text.split(/\s+/).filter(Boolean);

/** `VAR=value` words (as a shell command line or a knob gives them) as an environment. */
export const envOf = (words: string[]): Record<string, string> =>
  Object.fromEntries(words.map((word) => word.split(/=(.*)/s)));

/**
 * What `npm run serve` runs (package.json): its leading VAR=value pairs and its node flags, so that
 * tests and benches start the server as it is shipped.
 */
export function serveCommand(): { env: Record<string, string>; args: string[] } {
  const packageJson = fileURLToPath(new URL('../package.json', import.meta.url));
  const script: string = JSON.parse(readFileSync(packageJson, 'utf8')).scripts.serve;
  const words = wordsOf(script);
  const node = words.indexOf('node');
  return {
    env: envOf(words.slice(0, node)),
    args: words.slice(node + 1).filter((word) => word.startsWith('-')),
  };
}
