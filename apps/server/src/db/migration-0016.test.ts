import { describe, expect, it } from 'vitest';
import { insertedId, insertUser, migrationTestDatabase } from '../../test/migrations.ts';
import { migrationsFolder } from '../paths.ts';

/**
 * Migration 0016 (pins and saved messages, issue 22) on a database with data in it: applied after
 * 0015 to a workspace with a channel, channel messages and a direct message; then pins and saved rows
 * follow their messages, channels and users away (ON DELETE CASCADE). PGlite, or a fresh PostgreSQL
 * database in the postgres project.
 */

// The committed migrations as they were before this one: 0000..0015.
const t = migrationTestDatabase(15);

describe('migration 0016 (pins and saved messages)', () => {
  it('keeps existing messages, and its rows go with what they point at', async () => {
    const { db } = t;
    await db.migrate(t.before);
    const one = (text: string, params: unknown[]) => insertedId(db, text, params);
    const user = (email: string) => insertUser(db, email);
    const [ann, bob, cid] = [
      await user('ann@example.com'),
      await user('bob@example.com'),
      await user('cid@example.com'),
    ];
    const ws = await one(
      `insert into workspaces (name, description, created_by) values ('acme', 'x', $1) returning id`,
      [ann],
    );
    const channel = (name: string) =>
      one(
        'insert into channels (workspace_id, name, description, is_private, created_by) values ($1, $2, $3, false, $4) returning id',
        [ws, name, 'd', ann],
      );
    const [general, random] = [await channel('general'), await channel('random')];
    const message = (c: string, seq: number, sender: string, content: string) =>
      one(
        `insert into channel_messages (channel_id, seq, sender_id, content, client_id)
         values ($1, $2, $3, $4, gen_random_uuid()) returning id`,
        [c, seq, sender, content],
      );
    const hello = await message(general, 1, bob, 'hello');
    const later = await message(general, 2, ann, 'later');
    const elsewhere = await message(random, 1, cid, 'elsewhere');
    const pair = [ann, bob].sort();
    const conversation = await one(
      'insert into direct_conversations (user_a, user_b, last_seq) values ($1, $2, 1) returning id',
      pair,
    );
    const direct = await one(
      `insert into direct_messages (conversation_id, seq, sender_id, receiver_id, content, client_id)
       values ($1, 1, $2, $3, 'psst', gen_random_uuid()) returning id`,
      [conversation, ann, bob],
    );

    await db.migrate(migrationsFolder);

    // What was there is untouched.
    const contents = await db.query<{ content: string }>(
      'select content from channel_messages order by content',
    );
    expect(contents.map((r) => r.content)).toEqual(['elsewhere', 'hello', 'later']);

    // Pins: one per message.
    const pin = (m: string, c: string, by: string) =>
      db.query('insert into channel_pins (message_id, channel_id, pinned_by) values ($1, $2, $3)', [
        m,
        c,
        by,
      ]);
    await pin(hello, general, ann);
    await pin(later, general, bob);
    await pin(elsewhere, random, cid);
    await expect(pin(hello, general, bob)).rejects.toThrow();

    // Saved: exactly one message per row, once per user and message.
    const saveChannel = (u: string, m: string) =>
      db.query('insert into saved_messages (user_id, channel_message_id) values ($1, $2)', [u, m]);
    await saveChannel(bob, hello);
    await saveChannel(ann, later);
    await saveChannel(cid, elsewhere);
    await db.query('insert into saved_messages (user_id, direct_message_id) values ($1, $2)', [bob, direct]);
    await expect(saveChannel(bob, hello)).rejects.toThrow();
    await expect(db.query('insert into saved_messages (user_id) values ($1)', [ann])).rejects.toThrow();
    await expect(
      db.query(
        'insert into saved_messages (user_id, channel_message_id, direct_message_id) values ($1, $2, $3)',
        [ann, hello, direct],
      ),
    ).rejects.toThrow();

    const count = async (table: string) =>
      Number((await db.query<{ n: string }>(`select count(*) as n from ${table}`))[0]?.n);
    // A deleted message takes its pin and saved rows along.
    await db.query('delete from channel_messages where id = $1', [hello]);
    expect(await count('channel_pins')).toBe(2);
    expect(await count('saved_messages')).toBe(3);
    // So does a deleted channel, a deleted direct message, and a deleted account.
    await db.query('delete from channels where id = $1', [random]);
    expect(await count('channel_pins')).toBe(1);
    expect(await count('saved_messages')).toBe(2);
    await db.query('delete from direct_messages where id = $1', [direct]);
    expect(await count('saved_messages')).toBe(1);
    await db.query('delete from users where id = $1', [bob]);
    // Bob pinned `later`: his pin goes; Ann's saved copy of it stays.
    expect(await count('channel_pins')).toBe(0);
    expect(await count('saved_messages')).toBe(1);
  });
});
