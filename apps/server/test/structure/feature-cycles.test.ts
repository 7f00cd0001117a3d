import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, featureGraph, importsOf } from './feature-graph.ts';

const featuresDir = fileURLToPath(new URL('../../src/features', import.meta.url));

/** The edges inside each cycle, so a failure names the imports to undo. */
function describeCycles(edges: Map<string, Set<string>>, found: string[][]) {
  return found.map((component) =>
    component
      .flatMap((from) =>
        [...(edges.get(from) ?? [])].filter((to) => component.includes(to)).map((to) => `${from} -> ${to}`),
      )
      .join(', '),
  );
}

describe('server feature import graph', () => {
  it('has no cycle between features (share through the owner, or subscribe on the bus)', () => {
    const { edges } = featureGraph(featuresDir);
    // Positive control: the real tree was read (every feature folder, and the edges everyone has).
    expect(edges.size).toBeGreaterThanOrEqual(15);
    expect(edges.get('chat')?.has('workspaces')).toBe(true);
    expect(describeCycles(edges, cycles(edges))).toEqual([]);
  });

  it('finds a cycle when one feature imports another that imports it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'feature-graph-'));
    try {
      for (const [feature, body] of [
        ['alpha', "import { b } from '../beta/beta.access.ts';\nexport const a = b;\n"],
        ['beta', "import type { G } from '../gamma/gamma.access.ts';\nexport const b = 1 as unknown as G;\n"],
        ['gamma', "export { a } from '../alpha/alpha.access.ts';\nexport type G = number;\n"],
        [
          'delta',
          "// import { a } from '../alpha/alpha.access.ts';\nexport const d = import('../beta/beta.access.ts');\n",
        ],
      ] as const) {
        mkdirSync(join(dir, feature));
        writeFileSync(join(dir, feature, `${feature}.access.ts`), body);
        // Test files do not count.
        writeFileSync(join(dir, feature, `${feature}.test.ts`), "import '../delta/delta.access.ts';\n");
      }
      const { edges, crossImports } = featureGraph(dir);
      expect(cycles(edges)).toEqual([['alpha', 'beta', 'gamma']]);
      expect(edges.get('delta')).toEqual(new Set(['beta']));
      expect(crossImports).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads static, re-exported, type-only and dynamic imports, not commented ones', () => {
    expect(
      importsOf(`import a from './a.ts';
import type { B } from "../b/b.ts";
export * from '../c/c.ts';
/* import x from '../x/x.ts'; */
// import y from '../y/y.ts';
const d = await import('../d/d.ts');
import '../e/e.ts';`),
    ).toEqual(['./a.ts', '../b/b.ts', '../c/c.ts', '../d/d.ts', '../e/e.ts']);
  });
});
