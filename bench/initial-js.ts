// Initial JavaScript (and CSS) a browser downloads for `/`, gzip-compressed, against the budget.
// Needs a built web app: `npm run build` first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot, report } from './lib.ts';

const BUDGET_JS_GZIP = 150 * 1024;
const dist = join(repoRoot, 'apps/web/dist');
const indexHtml = join(dist, 'index.html');
if (!existsSync(indexHtml)) {
  console.error('apps/web/dist is missing: run `npm run build` first.');
  process.exit(1);
}
const html = readFileSync(indexHtml, 'utf8');
// Everything index.html loads before the app runs: the entry script, its modulepreloads, stylesheets.
const assets = [...html.matchAll(/<(?:script[^>]*src|link[^>]*href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
  (m) => m[1] as string,
);
const rows = [...new Set(assets)].map((asset) => {
  const bytes = readFileSync(join(dist, asset));
  return {
    asset,
    kind: asset.endsWith('.js') ? 'js' : 'css',
    raw: bytes.length,
    gzip: gzipSync(bytes).length,
  };
});
const jsGzip = rows.filter((r) => r.kind === 'js').reduce((sum, r) => sum + r.gzip, 0);
report('initial-js', [
  ...rows,
  { asset: 'TOTAL initial JS', kind: 'js', raw: 0, gzip: jsGzip },
  {
    asset: `budget ${BUDGET_JS_GZIP} B`,
    kind: jsGzip <= BUDGET_JS_GZIP ? 'within' : 'OVER',
    raw: 0,
    gzip: BUDGET_JS_GZIP,
  },
]);
if (jsGzip > BUDGET_JS_GZIP) process.exitCode = 1;
