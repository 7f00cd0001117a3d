import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyUuid } from './any-uuid.ts';
import { type Db, openDatabase } from './client.ts';
import { users } from './schema.ts';

describe('anyUuid', () => {
  let db: Db;
  let close: () => Promise<void>;
  const ids = [randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    const opened = await openDatabase({ dataDir: 'memory://' });
    db = opened.db;
    close = opened.close;
    await db
      .insert(users)
      .values(ids.map((id, i) => ({ id, email: `any-${i}@example.com`, firstName: 'A', lastName: `${i}` })));
  });
  afterAll(() => close());

  it('matches the listed ids with one bind parameter', async () => {
    const query = db
      .select({ id: users.id })
      .from(users)
      .where(anyUuid(users.id, ids.slice(0, 2)));
    expect(query.toSQL().params).toHaveLength(1);
    const rows = await query;
    expect(rows.map((r) => r.id).sort()).toEqual(ids.slice(0, 2).sort());
  });

  it('matches nothing for an empty list', async () => {
    expect(await db.select().from(users).where(anyUuid(users.id, []))).toEqual([]);
    expect(
      await db
        .select()
        .from(users)
        .where(eq(users.id, ids[2] as string)),
    ).toHaveLength(1);
  });

  it('refuses anything that is not a UUID before it reaches the database', () => {
    expect(() => anyUuid(users.id, [ids[0] as string, '1,2}'])).toThrow(/not a UUID/);
  });
});
