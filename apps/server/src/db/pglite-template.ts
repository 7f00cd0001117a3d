import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's initdb takes ~3.5 s; unpacking an already-initialised and migrated cluster takes well
 * under one. `npm run build` (and the test setup) writes that cluster once as a tarball, keyed by
 * the migrations and the PGlite version, and new databases start from it. Without a template the
 * database is simply initialised from scratch.
 */
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const cacheDir = fileURLToPath(new URL('../../.cache', import.meta.url));

function templateKey(): string {
  const hash = createHash('sha256');
  // The package's entry is dist/index.js; its package.json (with the version) is one folder up.
  const pglitePkg = join(
    dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
    '..',
    'package.json',
  );
  hash.update(JSON.parse(readFileSync(pglitePkg, 'utf8')).version);
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name))
    .sort();
  for (const file of files) hash.update(file.slice(migrationsFolder.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

export const templatePath = () => join(cacheDir, `pglite-${templateKey()}.tar`);

export function loadTemplate(): Blob | undefined {
  const path = templatePath();
  return existsSync(path) ? new Blob([readFileSync(path)]) : undefined;
}

/** Creates the template if it is missing; `migrate` applies the schema to the fresh cluster. */
export async function ensureTemplate(migrate: (client: PGlite) => Promise<void>): Promise<string> {
  const path = templatePath();
  if (existsSync(path)) return path;
  const client = await PGlite.create('memory://');
  await migrate(client);
  const dump = await client.dumpDataDir('none');
  await client.close();
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, path); // atomic: a concurrent reader never sees half a file
  return path;
}
