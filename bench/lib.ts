import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Prints a table and writes it, with the machine it ran on, to bench/results/<name>.json. */
export function report(name: string, rows: Record<string, string | number>[]) {
  console.log(`\n${name}`);
  console.table(rows);
  const dir = join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  // The load average says how much of the machine the run really had (CI and others share it).
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadavg: loadavg().map((l) => Math.round(l * 10) / 10),
  };
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({ name, at: new Date().toISOString(), node: process.version, machine, rows }, null, 2),
  );
}
