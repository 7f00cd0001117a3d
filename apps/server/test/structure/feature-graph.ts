import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The import graph of the server's features, read from the sources with a small parser: every
 * `import … from '…'`, `export … from '…'` and `import('…')` with a relative path, in non-test files
 * of apps/server/src/features (type-only imports count: they couple features as much as calls).
 */

export interface FeatureGraph {
  /** feature → features it imports */
  edges: Map<string, Set<string>>;
  /** every import of one feature's file by another feature's file, as "from.ts -> to.ts" */
  crossImports: string[];
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const isTestFile = (name: string) => /\.test\.ts$|test-helpers\.ts$|test-fixtures\.ts$/.test(name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !isTestFile(entry.name) ? [path] : [];
  });
}

/** Import specifiers of a module's text (comments are dropped first so examples in them do not count). */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(SPECIFIER)].map((m) => m[1] ?? '');
}

export function featureGraph(featuresDir: string): FeatureGraph {
  const root = resolve(featuresDir);
  const featureOf = (file: string) => {
    const rel = relative(root, file);
    return rel.startsWith('..') ? null : (rel.split(sep)[0] ?? null);
  };
  const edges = new Map<string, Set<string>>();
  const crossImports: string[] = [];
  for (const file of sourceFiles(root)) {
    const from = featureOf(file);
    if (!from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      const to = featureOf(target);
      if (!to || to === from) continue;
      edges.get(from)?.add(to);
      crossImports.push(`${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  return { edges, crossImports };
}

/** The strongly connected components with more than one feature (Tarjan), each sorted, sorted. */
export function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, indexOf.get(w) ?? 0));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return out.sort((a, b) => a.join().localeCompare(b.join()));
}
