import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../http/db-errors.ts';
import { type Database, openDatabase, rowsOf } from './client.ts';
import { preparedQuery, preparedSql } from './prepared.ts';
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

  it('fails a statement at each step of the protocol on its own, and stays usable', async () => {
    // What drizzle wraps: the database's error (or PGlite's) as the cause.
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => ({ code: undefined, message: 'no error' }),
        (e: { cause?: { code?: string; message: string } }) => ({
          code: e.cause?.code,
          message: e.cause?.message ?? '',
        }),
      );
    // Parsing (syntax), binding (a value its type refuses), and before anything went in (a
    // parameter PGlite cannot serialize): each answers its own error.
    expect((await failure(onDisk.db.execute(sql`selec 1`))).code).toBe('42601');
    expect((await failure(onDisk.db.execute(sql`select ${'many'}::int as n`))).code).toBe('22P02');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect((await failure(onDisk.db.execute(sql`select ${circular}::jsonb as j`))).message).toMatch(
      /circular/,
    );
    // Values, types and the session are as before: a statement with parameters, then a transaction.
    expect(rowsOf(await onDisk.db.execute(sql`select ${7}::int + 1 as n, ${{ n: 1 }}::jsonb as j`))).toEqual([
      { n: 8, j: { n: 1 } },
    ]);
    expect(
      await onDisk.db.transaction(async (tx) => rowsOf(await tx.execute(sql`select ${'in'}::text as t`))),
    ).toEqual([{ t: 'in' }]);
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

  describe('a prepared statement (db/prepared.ts): named on the thread, parsed and planned once', () => {
    const insertUser = preparedSql(
      'thread_test_insert_user',
      () => sql`insert into ${users} (first_name, last_name, email, password_hash)
        values (${sql.placeholder('first')}::text, 'U', ${sql.placeholder('email')}::text, ${sql.placeholder('hash')})
        returning first_name, email, password_hash, ${sql.placeholder('n')}::int + 1 as next, created_at is not null as dated`,
    );
    const userByEmail = preparedQuery('thread_test_user_by_email', (db) =>
      db
        .select({ email: users.email, createdAt: users.createdAt })
        .from(users)
        .where(sql`${users.email} = ${sql.placeholder('email')}`),
    );
    const runsOnThread = async () =>
      rowsOf<{ name: string; runs: number }>(
        await onDisk.db.execute(sql`select name, (generic_plans + custom_plans)::int as runs
          from pg_prepared_statements where name like 'thread_test_%' order by name`),
      );

    it('answers what PGlite in process answers, and runs under its name', async () => {
      const values = (email: string) => ({ first: 'P', email, hash: null, n: 41 });
      const fromThread = rowsOf(await insertUser(onDisk.db).execute(values('prepared@example.com')));
      const fromProcess = rowsOf(await insertUser(inProcess.db).execute(values('prepared@example.com')));
      expect(fromThread).toEqual(fromProcess);
      expect(fromThread).toEqual([
        { first_name: 'P', email: 'prepared@example.com', password_hash: null, next: 42, dated: true },
      ]);
      await insertUser(onDisk.db).execute(values('prepared-2@example.com'));
      const [read] = await userByEmail(onDisk.db).execute({ email: 'prepared-2@example.com' });
      expect(read?.createdAt).toBeInstanceOf(Date);
      expect(await runsOnThread()).toEqual([
        { name: 'thread_test_insert_user', runs: 2 },
        { name: 'thread_test_user_by_email', runs: 1 },
      ]);
    });

    it('reports its errors with their SQLSTATE and stays usable', async () => {
      const err = await insertUser(onDisk.db)
        .execute({ first: 'P', email: 'prepared@example.com', hash: 'x', n: 1 })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isUniqueViolation(err)).toBe(true);
      const [again] = rowsOf<{ email: string }>(
        await insertUser(onDisk.db).execute({ first: 'P', email: 'prepared-3@example.com', hash: 'x', n: 1 }),
      );
      expect(again?.email).toBe('prepared-3@example.com');
    });

    it('waits for a transaction in progress instead of running inside it', async () => {
      let outside: Promise<unknown> | undefined;
      await expect(
        onDisk.db.transaction(async (tx) => {
          await tx.insert(users).values(newUser('prepared-in-tx@example.com'));
          outside = insertUser(onDisk.db).execute({
            first: 'O',
            email: 'prepared-outside@example.com',
            hash: 'x',
            n: 1,
          });
          await tx.execute(sql`select 1`);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await outside;
      // Had it run inside the transaction, the rollback would have taken its row too.
      expect(await userByEmail(onDisk.db).execute({ email: 'prepared-outside@example.com' })).toHaveLength(1);
      expect(await userByEmail(onDisk.db).execute({ email: 'prepared-in-tx@example.com' })).toHaveLength(0);
    });
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
