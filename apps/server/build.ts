// The server as one ES module for plain `node` (`npm run build` writes it, `npm run serve` runs it):
// start-up then loads JavaScript instead of compiling TypeScript through tsx (decision 0001).
//
//   node --import tsx apps/server/build.ts [outdir]     (default apps/server/dist)
//
// Our own code is bundled, packages/shared and drizzle-orm included; everything else in node_modules
// stays external and is loaded from there. Files the server reads beside its code (migrations, the PGlite
// template, the web app) are found from apps/server (src/paths.ts), which the bundle is told here.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const serverRoot = dirname(fileURLToPath(import.meta.url));
const sharedSrc = resolve(serverRoot, '..', '..', 'packages', 'shared', 'src');

/** `@cohort/shared/<name>` is our TypeScript (exports `./*` → `./src/*.ts`): bundle it, not import it. */
const bundleShared: Plugin = {
  name: 'bundle-cohort-shared',
  setup(b) {
    b.onResolve({ filter: /^@cohort\/shared\// }, (args) => ({
      path: resolve(sharedSrc, `${args.path.slice('@cohort/shared/'.length)}.ts`),
    }));
  },
};

/**
 * Packages bundled in rather than imported from node_modules. drizzle-orm's package.json is 179 KB
 * (an export map naming every file), and Node parsed it again for each of the ~100 drizzle modules
 * the server loads: about 0.6 s of every start (docs/performance.md, "Cold start").
 */
const BUNDLED_PACKAGES = /^drizzle-orm(\/|$)/;

/** Every other package (and Node's builtins) stays external, loaded from node_modules as before. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/** Writes `<outdir>/main.js` and `pglite-worker.js` (and their source maps); must stay inside the checkout to find node_modules. */
export async function buildServer(outdir = resolve(serverRoot, 'dist')) {
  const started = performance.now();
  // Chunk names change with their content: drop the previous build's, which nothing loads any more.
  if (existsSync(outdir))
    for (const file of readdirSync(outdir))
      if (/^server-[\w-]+\.js(\.map)?$/.test(file)) rmSync(join(outdir, file));
  const result = await build({
    // The embedded database's worker thread is its own entry: Node starts it from a file.
    entryPoints: {
      main: resolve(serverRoot, 'src', 'main.ts'),
      'pglite-worker': resolve(serverRoot, 'src', 'db', 'pglite-worker.ts'),
    },
    outdir,
    bundle: true,
    plugins: [bundleShared, externalPackages],
    format: 'esm',
    // main.ts imports the app dynamically, to open the database meanwhile: as a chunk of its own, the
    // app's packages load then, not before main.ts runs (without splitting they would be hoisted).
    splitting: true,
    chunkNames: 'server-[hash]',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    // The path from the bundle to apps/server, for src/paths.ts.
    define: { __COHORT_SERVER_ROOT__: JSON.stringify(relative(outdir, serverRoot) || '.') },
    logLevel: 'warning',
    metafile: true,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  return { outdir, bytes, ms: Math.round(performance.now() - started) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { outdir, bytes, ms } = await buildServer(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(
    `server bundle: ${relative(process.cwd(), outdir) || '.'}/main.js, ${Math.round(bytes / 1024)} KiB with its map (${ms} ms)`,
  );
}
