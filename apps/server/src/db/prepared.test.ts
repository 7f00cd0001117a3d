import { randomUUID } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app.ts';
import { anyUuidPlaceholder, uuidArrayLiteral } from './any-uuid.ts';
import type { Database, Db } from './client.ts';
import { preparedNameOf, preparedQuery } from './prepared.ts';
import { users } from './schema.ts';

describe('preparedQuery', () => {
  it('builds a query once per database, and apart for each database, under its name', () => {
    let builds = 0;
    const query = preparedQuery('prepared_test_builds', (db) => {
      builds += 1;
      return { prepare: (name: string) => ({ db, name, getQuery: () => ({ sql: 'select 1 as builds' }) }) };
    });
    const first = {} as Db;
    const second = {} as Db;
    expect(preparedNameOf('select 1 as builds')).toBeUndefined();
    expect(query(first)).toBe(query(first));
    expect(builds).toBe(1);
    expect(query(second)).toMatchObject({ db: second, name: 'prepared_test_builds' });
    expect(builds).toBe(2);
    // The embedded database's thread finds the name by the text (drizzle's PGlite driver drops it).
    expect(preparedNameOf('select 1 as builds')).toBe('prepared_test_builds');
  });

  it('refuses a name already given (PostgreSQL would refuse the second statement)', () => {
    const build = () => ({ prepare: () => ({ getQuery: () => ({ sql: 'select 1' }) }) });
    preparedQuery('prepared_test_twice', build);
    expect(() => preparedQuery('prepared_test_twice', build)).toThrow(
      'preparedQuery: the name prepared_test_twice is already used',
    );
  });

  describe('on the database', () => {
    let database: Database;
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const byEmail = preparedQuery('prepared_test_by_email', (db) =>
      db
        .select({ id: users.id })
        .from(users)
        .where(sql`${users.email} = ${sql.placeholder('email')}`),
    );
    const byIds = preparedQuery('prepared_test_by_ids', (db) =>
      db
        .select({ id: users.id })
        .from(users)
        .where(anyUuidPlaceholder(users.id, 'ids'))
        .orderBy(asc(users.email))
        .limit(sql.placeholder('limit')),
    );

    beforeAll(async () => {
      database = await openTestDatabase();
      await database.db
        .insert(users)
        .values(
          ids.map((id, i) => ({ id, email: `prepared-${i}@example.com`, firstName: 'P', lastName: `${i}` })),
        );
    });
    afterAll(() => database.close());

    it('answers each call with its own values, many at once (on PostgreSQL: over several connections)', async () => {
      const answers = await Promise.all(
        [...ids, ...ids].map((_, i) =>
          byEmail(database.db).execute({ email: `prepared-${i % ids.length}@example.com` }),
        ),
      );
      expect(answers.map((rows) => rows.map((r) => r.id))).toEqual([...ids, ...ids].map((id) => [id]));
      expect(await byEmail(database.db).execute({ email: 'nobody@example.com' })).toEqual([]);
    });

    it('takes a uuid[] and a limit as placeholders', async () => {
      const some = [ids[3], ids[1], ids[2]] as string[];
      const rows = await byIds(database.db).execute({ ids: uuidArrayLiteral(some), limit: 2 });
      expect(rows.map((r) => r.id)).toEqual([ids[1], ids[2]]);
      expect(await byIds(database.db).execute({ ids: uuidArrayLiteral([]), limit: 5 })).toEqual([]);
    });
  });
});
