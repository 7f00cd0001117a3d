import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../paths.ts';
import { openDatabase, rowsOf } from './client.ts';
import { unpackTemplate } from './pglite-template.ts';

// The Vitest global setup built the template (apps/server/test/global-setup.ts).
describe('a new DATA_DIR from the PGlite template', () => {
  const root = mkdtempSync(join(tmpdir(), 'cohort-template-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is unpacked onto disk and opens migrated, with its data kept across a reopen', async () => {
    const dataDir = join(root, 'fresh');
    const database = await openDatabase({ dataDir });
    expect(database.created).toBe('template');
    expect(readdirSync(dataDir)).toEqual(['pglite']); // no `.partial` left beside it
    // PostgreSQL's permissions come along: other local users cannot read the cluster.
    for (const path of ['pglite', 'pglite/base', 'pglite/base/5', 'pglite/global/pg_control'])
      expect(statSync(join(dataDir, path)).mode & 0o007, path).toBe(0);
    await database.db.execute(sql`insert into users (first_name, last_name, email, password_hash)
      values ('T', 'U', 'template@example.com', 'x')`);
    await database.close();

    const again = await openDatabase({ dataDir });
    expect(again.created).toBeUndefined();
    // The worker's setting (docs/performance.md, "Idle memory"): PostgreSQL touches all of it at start.
    const buffers = rowsOf<{ shared_buffers: string }>(await again.db.execute(sql`show shared_buffers`));
    expect(buffers[0]?.shared_buffers).toBe('16MB');
    const rows = rowsOf<{ n: number }>(await again.db.execute(sql`select count(*)::int as n from users`));
    expect(rows[0]?.n).toBe(1);
    await again.close();
  });

  it('opened early, holds queries back until the migrations have run', async () => {
    // A cluster on disk from before 0016 (0016's tables dropped, the journal rows of 0016 and of every
    // later migration removed), as after an upgrade. main.ts opens it `early` and builds the app while
    // the migrations run.
    const dataDir = join(root, 'behind');
    expect(await unpackTemplate(join(dataDir, 'pglite'))).toBe(true);
    const older = await PGlite.create(join(dataDir, 'pglite'));
    const journal: { entries: Array<{ tag: string; when: number }> } = JSON.parse(
      readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    );
    const since = journal.entries.find((e) => e.tag === '0016_pins_saved')?.when;
    expect(since).toBeTypeOf('number');
    await older.exec(`drop table channel_pins, saved_messages;
      delete from drizzle.__drizzle_migrations where created_at >= ${since}`);
    await older.close();

    const database = await openDatabase({ dataDir, early: true });
    // Sent at once: without the hold it would run before 0016 and find no such table.
    const counted = database.db.execute(sql`select count(*)::int as n from saved_messages`);
    expect(rowsOf<{ n: number }>(await counted)[0]?.n).toBe(0);
    await database.migrated;
    await database.close();
  });

  it('leaves a directory that already holds something to PGlite', async () => {
    const dir = join(root, 'occupied', 'pglite');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'something'), '');
    expect(await unpackTemplate(dir)).toBe(false);
    expect(readdirSync(dir)).toEqual(['something']);
    expect(existsSync(`${dir}.partial`)).toBe(false);
  });
});
