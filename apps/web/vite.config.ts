import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// In development the API runs as its own process on port 3000. The proxy keeps the browser's Host
// header (no changeOrigin) so the server's Origin check sees one site, exactly as in production.
const api = 'http://localhost:3000';

/**
 * Writes `.br` and `.gz` beside every text asset of the build, at maximum compression, once; the
 * server sends them as they are (@fastify/static `preCompressed`) instead of compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'cohort-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file) || file.includes('/.vite/')) continue;
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  // dist/.vite/manifest.json maps every source module to its chunk and static imports: the
  // per-route JavaScript budget check (bench/check-budgets.ts) reads it.
  build: {
    manifest: true,
    rolldownOptions: {
      // Automatic code splitting alone cut the channel route into ~60 chunks (an icon, a schema
      // helper, a query module each): over HTTP/1.1 a phone fetches them 6 at a time, ~10 round
      // trips before the page can render (Lighthouse mobile, issue 19). Rolldown copies common
      // chunks under 64 KiB of source into the chunks that read them instead; a registry in its
      // runtime keeps one instance of each module, and no route downloads code it could not reach
      // before. It needs unpreserved entry signatures (and turns on strictExecutionOrder).
      preserveEntrySignatures: false,
      // …but merging common chunks into a dynamic entry (task-page imports the taskboard and 404
      // pages statically) drops those pages' manifest keys, which the web shell and the budget
      // check look up.
      experimental: { chunkOptimization: { mergeCommonChunks: false } },
      output: {
        codeSplitting: {
          groups: [
            // TanStack Query is not in the entry (app/session.tsx loads it after the first render) but
            // is read by the session chunk and nearly every screen: one file they share, not a copy
            // inlined into each of them nor a handful of small common chunks (issue 21).
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
          ],
          // Only TanStack's own modules: React, which it imports, stays with the entry.
          includeDependenciesRecursively: false,
          experimentalInlineCommonChunks: {
            maxSize: 64 * 1024,
            // As Vite's builds do: chunks holding styles stay files (its CSS plugin reads moduleIds).
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: api },
      '/healthz': { target: api },
      '/socket.io': { target: api, ws: true },
    },
  },
});
