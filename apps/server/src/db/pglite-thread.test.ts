import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../http/db-errors.ts';
import { type Database, openDatabase, rowsOf } from './client.ts';
import { users } from './schema.ts';

// A DATA_DIR on disk runs PGlite on a worker thread (pglite-worker.ts): the app must not tell the
// difference from PGlite in process (memory://, what the rest of the suite uses).
describe('the embedded database on its worker thread', () => {
  const root = mkdtempSync(join(tmpdir(), 'cohort-thread-'));
  let onDisk: Database;
  let inProcess: Database;
  beforeAll(async () => {
    onDisk = await openDatabase({ dataDir: join(root, 'data') });
    inProcess = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await onDisk.close();
    await inProcess.close();
    rmSync(root, { recursive: true, force: true });
  });

  const newUser = (email: string) => ({ firstName: 'T', lastName: 'U', email, passwordHash: 'x' });

  it('answers the same values as PGlite in process, through drizzle', async () => {
    const probe = sql`select 1::int as n, 12345678901234::bigint as big, 1.5::numeric as num,
      '{"a":[1,"b"]}'::jsonb as j, '\\x0102'::bytea as bytes, array['x','y'] as arr,
      '2026-11-26T08:00:00Z'::timestamptz as at, null::text as nothing`;
    const [fromThread] = rowsOf(await onDisk.db.execute(probe));
    const [fromProcess] = rowsOf(await inProcess.db.execute(probe));
    expect(fromThread).toEqual(fromProcess);
    // And through the query builder, whose rows come back as arrays with dates kept as text.
    await onDisk.db.insert(users).values(newUser('thread@example.com'));
    const [row] = await onDisk.db.select().from(users).where(sql`email = 'thread@example.com'`);
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(row?.email).toBe('thread@example.com');
  });

  it('reports database errors with their SQLSTATE, as the app expects', async () => {
    const err = await onDisk.db
      .insert(users)
      .values(newUser('thread@example.com'))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err)).toBe(true);
    // The thread is still usable after an error.
    expect(rowsOf(await onDisk.db.execute(sql`select 2 as n`))).toEqual([{ n: 2 }]);
  });

  it('commits a transaction whole, or rolls it back whole when it throws', async () => {
    await onDisk.db.transaction(async (tx) => {
      await tx.insert(users).values(newUser('committed@example.com'));
      await tx.insert(users).values(newUser('committed-2@example.com'));
    });
    await expect(
      onDisk.db.transaction(async (tx) => {
        await tx.insert(users).values(newUser('rolled-back@example.com'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A failed statement inside a transaction fails the transaction, and nothing of it stays.
    await expect(
      onDisk.db.transaction(async (tx) => {
        await tx.insert(users).values(newUser('half@example.com'));
        await tx.insert(users).values(newUser('committed@example.com'));
      }),
    ).rejects.toSatisfy(isUniqueViolation);
    const emails = rowsOf<{ email: string }>(
      await onDisk.db.execute(
        sql`select email from users where email <> 'thread@example.com' order by email`,
      ),
    ).map((r) => r.email);
    expect(emails).toEqual(['committed-2@example.com', 'committed@example.com']);
  });

  it('keeps a statement issued during a transaction out of it, and runs it after', async () => {
    let outside: Promise<unknown> | undefined;
    await onDisk.db.transaction(async (tx) => {
      await tx.insert(users).values(newUser('during@example.com'));
      outside = onDisk.db.execute(
        sql`select count(*)::int as n from users where email = 'during@example.com'`,
      );
      await tx.execute(sql`select 1`);
    });
    // The outside read waited for the commit: it sees the row.
    expect(rowsOf(await outside)).toEqual([{ n: 1 }]);
  });

  it('answers many concurrent statements, each with its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => onDisk.db.execute(sql`select ${i}::int as i`)),
    );
    expect(results.map((r) => rowsOf<{ i: number }>(r)[0]?.i)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
  });

  it('keeps what was written across a close and reopen, and refuses statements once closed', async () => {
    const dataDir = join(root, 'reopen');
    const first = await openDatabase({ dataDir });
    await first.db.insert(users).values(newUser('kept@example.com'));
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toBeTruthy();
    const again = await openDatabase({ dataDir });
    expect(rowsOf(await again.db.execute(sql`select email from users`))).toEqual([
      { email: 'kept@example.com' },
    ]);
    await again.close();
  });
});
