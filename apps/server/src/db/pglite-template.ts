import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { migrationsFolder, serverRoot, templateCacheDir } from '../paths.ts';

/**
 * PGlite's initdb takes ~3.5 s; unpacking an already-initialised and migrated cluster takes well
 * under one. `npm run build` (and the test setup) writes that cluster once, as a tarball and
 * unpacked beside it, keyed by the migrations and the PGlite version, and new databases start from
 * it. Without a template the database is simply initialised from scratch.
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
/** The same cluster unpacked, which new data directories on disk are copied from. */
const templateDirPath = () => join(cacheDir, `pglite-${templateKey()}`);

/** The template for PGlite's `loadDataDir` (an in-memory database), when one was built. */
export function loadTemplate(): Blob | undefined {
  const path = templatePath();
  return existsSync(path) ? new Blob([readFileSync(path)]) : undefined;
}

/** Files copied at once: enough to keep libuv's threads and the disk busy. */
const PARALLEL_COPIES = 16;

/**
 * Writes the template's cluster as the cluster in `dir`, which must be missing or empty; false
 * (nothing done) without a template or when `dir` holds anything. PGlite's own `loadDataDir` writes
 * the same files through its emulated file system, byte by byte through JavaScript: about 2 s for
 * these 40 MiB against about 0.2 s here, most of an empty DATA_DIR's start-up. The files are copied
 * from the unpacked template with `copyFile` on libuv's threads (the kernel copies; no buffer of
 * ours holds them), so the server's modules load meanwhile (main.ts). Reading the 40 MiB archive
 * instead kept that much memory until the next full collection, which an idle server may not run
 * for minutes. It is copied beside `dir` and renamed into place, so a crash half-way never leaves
 * a half-written cluster that looks complete.
 */
export async function unpackTemplate(dir: string): Promise<boolean> {
  const source = templateDirPath();
  if (!existsSync(source)) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const partial = resolve(`${dir}.partial`);
  await rm(partial, { recursive: true, force: true });
  await copyTree(source, partial);
  if (existsSync(dir)) await rmdir(dir); // empty, checked above
  await rename(partial, dir);
  return true;
}

/** Copies a directory tree, with the directories' and files' permissions (PostgreSQL's 0700/0600). */
async function copyTree(from: string, to: string) {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const inTarget = (path: string) => join(to, relative(from, path));
  await mkdir(to, { recursive: true, mode: (await stat(from)).mode & 0o777 });
  // Parents before children: the recursive listing names a directory before what it holds.
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const path = join(entry.parentPath, entry.name);
    await mkdir(inTarget(path), { mode: (await stat(path)).mode & 0o777 });
  }
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  let next = 0;
  const copier = async () => {
    for (let file = files[next++]; file; file = files[next++]) await copyFile(file, inTarget(file));
  };
  await Promise.all(Array.from({ length: PARALLEL_COPIES }, copier));
}

/**
 * Unpacks the archive `dumpDataDir` writes (ustar: regular files and directories, names of at most
 * 100 characters; anything else is an error) into `dir`, with the archive's permissions.
 */
async function extractTar(tar: Buffer, dir: string) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
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
    const target = resolve(dir, `./${name}`);
    if (target !== dir && !target.startsWith(dir + sep)) throw new Error(`template: bad path ${name}`);
    const type = String.fromCharCode(header[156] ?? 0);
    const size = octal(124, 12);
    const mode = octal(100, 8) & 0o777;
    offset += 512;
    if (type === '5') await mkdir(target, { recursive: true, mode });
    else if (type === '0' || type === '\0') {
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, tar.subarray(offset, offset + size), { mode });
    } else throw new Error(`template: unsupported entry type ${JSON.stringify(type)} for ${name}`);
    offset += Math.ceil(size / 512) * 512;
  }
}

/**
 * Creates the template if it is missing: the archive (PGlite's `loadDataDir`, for memory://) and
 * the same cluster unpacked beside it (new data directories on disk). `migrate` applies the schema.
 */
export async function ensureTemplate(migrate: (client: PGlite) => Promise<void>): Promise<string> {
  const path = templatePath();
  if (!existsSync(path)) {
    const { PGlite } = await import('@electric-sql/pglite');
    const client = await PGlite.create('memory://');
    await migrate(client);
    const dump = await client.dumpDataDir('none');
    await client.close();
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, path); // atomic: a concurrent reader never sees half a file
  }
  const dir = templateDirPath();
  if (!existsSync(dir)) {
    const tmp = resolve(`${dir}.${process.pid}.tmp`);
    await rm(tmp, { recursive: true, force: true });
    await extractTar(await readFile(path), tmp);
    // A concurrent build may have won: its directory is the same cluster.
    await rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      await rm(tmp, { recursive: true, force: true });
      if (!existsSync(dir)) throw err;
    });
  }
  return path;
}
