import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { migrationsFolder, serverRoot, templateCacheDir } from '../paths.ts';

/**
 * PGlite's initdb takes ~3.5 s; unpacking an already-initialised and migrated cluster takes well
 * under one. `npm run build` (and the test setup) writes that cluster once as a tarball, keyed by
 * the migrations and the PGlite version, and new databases start from it. Without a template the
 * database is simply initialised from scratch.
 */
const cacheDir = templateCacheDir;

function templateKey(): string {
  const hash = createHash('sha256');
  // The package's entry is dist/index.js; its package.json (with the version) is one folder up.
  const pglitePkg = join(
    dirname(createRequire(join(serverRoot, 'package.json')).resolve('@electric-sql/pglite')),
    '..',
    'package.json',
  );
  hash.update(JSON.parse(readFileSync(pglitePkg, 'utf8')).version);
  // What the migrator reads: the journal and the SQL. drizzle-kit's snapshots beside the journal
  // (1.4 MB) only feed `db:generate`; hashing them cost every start ~60 ms.
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && (f.name.endsWith('.sql') || f.name === '_journal.json'))
    .map((f) => join(f.parentPath, f.name))
    .sort();
  for (const file of files) hash.update(file.slice(migrationsFolder.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

export const templatePath = () => join(cacheDir, `pglite-${templateKey()}.tar`);

/** The template for PGlite's `loadDataDir` (an in-memory database), when one was built. */
export function loadTemplate(): Blob | undefined {
  const path = templatePath();
  return existsSync(path) ? new Blob([readFileSync(path)]) : undefined;
}

/** Files written at once while unpacking: enough to keep libuv's threads and the disk busy. */
const PARALLEL_WRITES = 16;

/**
 * Unpacks the template straight onto disk as the cluster in `dir`, which must be missing or empty;
 * false (nothing done) without a template or when `dir` holds anything. PGlite's own `loadDataDir`
 * writes the same files through its emulated file system, byte by byte through JavaScript: about
 * 2 s for this 40 MiB archive against about 0.2 s here, most of an empty DATA_DIR's start-up. The
 * writes run on libuv's threads, so the server's modules load meanwhile (main.ts).
 *
 * The archive is the one `dumpDataDir` writes (ustar: regular files and directories, names of at
 * most 100 characters); anything else in it is an error. It is unpacked beside `dir` and renamed
 * into place, so a crash half-way never leaves a half-written cluster that looks complete.
 */
export async function unpackTemplate(dir: string): Promise<boolean> {
  const path = templatePath();
  if (!existsSync(path)) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const tar = await readFile(path);
  const partial = resolve(`${dir}.partial`);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const made = new Set([partial]); // directories come before their files; saves a mkdir per file
  const files: { target: string; offset: number; size: number; mode: number }[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length && tar[offset] !== 0) {
    const header = tar.subarray(offset, offset + 512);
    const text = (start: number, length: number) => {
      const raw = header.toString('latin1', start, start + length);
      const end = raw.indexOf('\0');
      return end === -1 ? raw : raw.slice(0, end);
    };
    const octal = (start: number, length: number) => Number.parseInt(text(start, length).trim() || '0', 8);
    const prefix = text(345, 155);
    const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
    const target = resolve(partial, `./${name}`);
    if (target !== partial && !target.startsWith(partial + sep))
      throw new Error(`template: bad path ${name}`);
    const type = String.fromCharCode(header[156] ?? 0);
    const size = octal(124, 12);
    const mode = octal(100, 8) & 0o777;
    offset += 512;
    if (type === '5') {
      await mkdir(target, { recursive: true, mode });
      made.add(target);
    } else if (type === '0' || type === '\0') {
      if (!made.has(dirname(target))) {
        await mkdir(dirname(target), { recursive: true });
        made.add(dirname(target));
      }
      files.push({ target, offset, size, mode });
    } else throw new Error(`template: unsupported entry type ${JSON.stringify(type)} for ${name}`);
    offset += Math.ceil(size / 512) * 512;
  }
  let next = 0;
  const writer = async () => {
    for (let file = files[next++]; file; file = files[next++])
      await writeFile(file.target, tar.subarray(file.offset, file.offset + file.size), { mode: file.mode });
  };
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, writer));
  if (existsSync(dir)) await rmdir(dir); // empty, checked above
  await rename(partial, dir);
  return true;
}

/** Creates the template if it is missing; `migrate` applies the schema to the fresh cluster. */
export async function ensureTemplate(migrate: (client: PGlite) => Promise<void>): Promise<string> {
  const path = templatePath();
  if (existsSync(path)) return path;
  const { PGlite } = await import('@electric-sql/pglite');
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
