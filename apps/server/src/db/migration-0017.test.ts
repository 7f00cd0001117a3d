import { describe, expect, it } from 'vitest';
import { insertedId, insertUser, migrationTestDatabase } from '../../test/migrations.ts';
import { migrationsFolder } from '../paths.ts';

/**
 * Migration 0017 (search indexes without a pending list) on a database with messages in it: applied
 * after 0016, both GIN indexes are set to `fastupdate = off` in place (not rebuilt), and messages
 * stored before and after are found by the same full-text match. PGlite, or a fresh PostgreSQL
 * database in the postgres project.
 */

// The committed migrations as they were before this one: 0000..0016.
const t = migrationTestDatabase(16);

const SEARCH_INDEXES = ['channel_messages_search_idx', 'direct_messages_search_idx'];

describe('migration 0017 (search indexes without a pending list)', () => {
  it('turns fastupdate off on both search indexes and keeps every message searchable', async () => {
    const { db } = t;
    await db.migrate(t.before);
    const options = async () =>
      db.query<{ name: string; options: string[] | null; oid: string }>(
        `select relname as name, reloptions as options, oid::text as oid from pg_class
         where relname = any($1) order by relname`,
        [SEARCH_INDEXES],
      );
    const before = await options();
    expect(before.map((r) => [r.name, r.options])).toEqual([
      ['channel_messages_search_idx', null],
      ['direct_messages_search_idx', null],
    ]);

    const [ann, bob] = [await insertUser(db, 'ann@example.com'), await insertUser(db, 'bob@example.com')];
    const ws = await insertedId(
      db,
      `insert into workspaces (name, description, created_by) values ('acme', 'x', $1) returning id`,
      [ann],
    );
    const general = await insertedId(
      db,
      `insert into channels (workspace_id, name, description, is_private, created_by)
       values ($1, 'general', 'd', false, $2) returning id`,
      [ws, ann],
    );
    const conversation = await insertedId(
      db,
      'insert into direct_conversations (user_a, user_b, last_seq) values ($1, $2, 0) returning id',
      [ann, bob].sort(),
    );
    const channelMessage = (seq: number, content: string) =>
      db.query(
        `insert into channel_messages (channel_id, seq, sender_id, content, client_id)
         values ($1, $2, $3, $4, gen_random_uuid())`,
        [general, seq, bob, content],
      );
    const directMessage = (seq: number, content: string) =>
      db.query(
        `insert into direct_messages (conversation_id, seq, sender_id, receiver_id, content, client_id)
         values ($1, $2, $3, $4, $5, gen_random_uuid())`,
        [conversation, seq, ann, bob, content],
      );
    // Queued in the pending lists (fastupdate was on).
    await channelMessage(1, 'the release train leaves friday');
    await directMessage(1, 'friday works for the release');

    await db.migrate(migrationsFolder);

    const after = await options();
    expect(after.map((r) => [r.name, r.options])).toEqual([
      ['channel_messages_search_idx', ['fastupdate=off']],
      ['direct_messages_search_idx', ['fastupdate=off']],
    ]);
    // Changed in place: the same indexes, not dropped and built again.
    expect(after.map((r) => r.oid)).toEqual(before.map((r) => r.oid));

    await channelMessage(2, 'release notes are in the wiki');
    await directMessage(2, 'no release this week');
    const found = async (table: string, word: string) =>
      (
        await db.query<{ content: string }>(
          `select content from ${table} where search @@ plainto_tsquery('simple', $1) order by seq`,
          [word],
        )
      ).map((r) => r.content);
    expect(await found('channel_messages', 'release')).toEqual([
      'the release train leaves friday',
      'release notes are in the wiki',
    ]);
    expect(await found('direct_messages', 'release')).toEqual([
      'friday works for the release',
      'no release this week',
    ]);
    expect(await found('channel_messages', 'friday')).toEqual(['the release train leaves friday']);
  });
});
