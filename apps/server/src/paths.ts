import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Set by the server bundle (apps/server/build.ts): the path from the bundle's folder to apps/server.
 * Undefined when the sources run (tsx, Vitest), where this file is apps/server/src/paths.ts.
 */
declare const __COHORT_SERVER_ROOT__: string | undefined;

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * apps/server, whether the server runs from its sources or from a bundle written anywhere: every
 * file the server reads at run time beside its code is found from here, not from the module's own
 * location (which differs between the two).
 */
export const serverRoot = resolve(
  here,
  typeof __COHORT_SERVER_ROOT__ === 'string' ? __COHORT_SERVER_ROOT__ : '..',
);

/** The committed migrations (SQL and drizzle's meta/_journal.json). */
export const migrationsFolder = join(serverRoot, 'src', 'db', 'migrations');
/** The pre-migrated PGlite template tarballs (see db/pglite-template.ts). */
export const templateCacheDir = join(serverRoot, '.cache');
/** The built web app (`npm run build -w apps/web`), unless WEB_DIST says otherwise. */
export const defaultWebDist = join(serverRoot, '..', 'web', 'dist');
/** The embedded database's worker thread (db/pglite-worker.ts): bundled beside main.js, or the source. */
export const pgliteWorkerFile =
  typeof __COHORT_SERVER_ROOT__ === 'string'
    ? join(here, 'pglite-worker.js')
    : join(serverRoot, 'src', 'db', 'pglite-worker.ts');
