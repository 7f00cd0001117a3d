// Initial JavaScript per route, gzip-compressed, against the budgets in bench/js-budgets.json.
// "Initial" = what a first visit to the route downloads before the screen can render: the entry
// chunk and its static imports, plus the route's lazily loaded page chunk and its static imports
// (dynamic imports inside a page — syntax highlighting, call engines — load later and are not
// counted). A row's `with` names modules the screen also waits for before it renders (the query
// cache's chunk, app/session.tsx, around every screen that reads the server): counted the same way.
// Read from Vite's manifest, so it needs a built web app: `npm run build` first.
// Exits 1 when a route is over its budget or a page has no budget. `npm run check:budgets`
// (also run by scripts/test.sh right after the build).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot, report } from './lib.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
interface Budgets {
  routes: { route: string; module: string | null; with?: string[]; budgetKiB: number }[];
}

const dist = join(repoRoot, 'apps/web/dist');
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error('apps/web/dist/.vite/manifest.json is missing: run `npm run build` first.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
const budgets = JSON.parse(readFileSync(join(repoRoot, 'bench/js-budgets.json'), 'utf8')) as Budgets;
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entryKey) throw new Error('the manifest has no entry chunk');

/** The manifest keys of `key` and everything it imports statically, transitively. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest`);
  seen.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const gzipOf = new Map<string, number>();
function gzipBytes(file: string): number {
  let n = gzipOf.get(file);
  if (n === undefined) {
    n = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzipOf.set(file, n);
  }
  return n;
}

const failures: string[] = [];
const budgeted = new Set(budgets.routes.map((r) => r.module).filter((m): m is string => m !== null));
// A new screen must come with a budget: every lazily loaded page module needs a row.
for (const [key, chunk] of Object.entries(manifest)) {
  if (chunk.isDynamicEntry && /-page\.tsx$/.test(key) && !budgeted.has(key)) {
    failures.push(`${key} is a lazily loaded page with no row in bench/js-budgets.json`);
  }
}

const rows = budgets.routes.map(({ route, module, with: alongside = [], budgetKiB }) => {
  const missing = [module, ...alongside].find((m) => m !== null && !manifest[m]);
  if (missing !== undefined) {
    failures.push(`${route}: ${missing} is not in the manifest (renamed?)`);
    return { route, chunks: 0, js_gzip_KiB: 0, css_gzip_KiB: 0, budget_KiB: budgetKiB, status: 'MISSING' };
  }
  const keys = closure(entryKey);
  if (module !== null) closure(module, keys);
  for (const m of alongside) closure(m, keys);
  const chunks = [...keys].map((k) => manifest[k] as ManifestChunk);
  const js = chunks.reduce((sum, c) => sum + gzipBytes(c.file), 0);
  const css = [...new Set(chunks.flatMap((c) => c.css ?? []))].reduce((sum, f) => sum + gzipBytes(f), 0);
  const kib = (n: number) => Math.round((n / 1024) * 10) / 10;
  const over = js > budgetKiB * 1024;
  if (over) failures.push(`${route}: ${kib(js)} KiB of gzip JS is over its budget of ${budgetKiB} KiB`);
  return {
    route,
    chunks: chunks.length,
    js_gzip_KiB: kib(js),
    css_gzip_KiB: kib(css),
    budget_KiB: budgetKiB,
    status: over ? 'OVER' : 'within',
  };
});

report('initial-js', rows);
if (failures.length > 0) {
  for (const f of failures) console.error(`✗ ${f}`);
  process.exitCode = 1;
} else {
  console.log(`✓ ${rows.length} routes within their initial-JS budgets`);
}
