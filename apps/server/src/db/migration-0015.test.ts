import { describe, expect, it } from 'vitest';
import { insertedId, insertUser, migrationTestDatabase } from '../../test/migrations.ts';
import { migrationsFolder } from '../paths.ts';

/**
 * Migration 0015 (channel management, issue 22) on a database with data in it: applied after 0014 to
 * workspaces with open and private channels and messages. PGlite, or a fresh PostgreSQL database in
 * the postgres project.
 */

// The committed migrations as they were before this one: 0000..0014.
const t = migrationTestDatabase(14);

describe('migration 0015 (channel management)', () => {
  it('makes every member of a workspace a member of its open channels, keeps private ones as they were', async () => {
    const { db } = t;
    await db.migrate(t.before);
    const one = (text: string, params: unknown[]) => insertedId(db, text, params);
    const user = (email: string) => insertUser(db, email);
    const [ann, bob, cid, dan] = [
      await user('ann@example.com'),
      await user('bob@example.com'),
      await user('cid@example.com'),
      await user('dan@example.com'),
    ];
    const ws = await one(
      `insert into workspaces (name, description, created_by) values ('acme', 'x', $1) returning id`,
      [ann],
    );
    const other = await one(
      `insert into workspaces (name, description, created_by) values ('other', 'x', $1) returning id`,
      [dan],
    );
    for (const [w, u, role] of [
      [ws, ann, 'admin'],
      [ws, bob, 'viewer'],
      [ws, cid, 'editor'],
      [other, dan, 'admin'],
    ]) {
      await db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
        w,
        u,
        role,
      ]);
    }
    const channel = (w: string, name: string, isPrivate: boolean, creator: string) =>
      one(
        'insert into channels (workspace_id, name, description, is_private, created_by) values ($1, $2, $3, $4, $5) returning id',
        [w, name, 'd', isPrivate, creator],
      );
    const general = await channel(ws, 'general', false, ann);
    const secret = await channel(ws, 'secret', true, cid);
    const elsewhere = await channel(other, 'general', false, dan);
    await db.query('insert into channel_members (channel_id, user_id) values ($1, $2), ($3, $4), ($5, $6)', [
      general,
      ann,
      secret,
      cid,
      elsewhere,
      dan,
    ]);
    await db.query(
      `insert into channel_messages (channel_id, seq, sender_id, content, client_id) values ($1, 1, $2, 'hello', gen_random_uuid())`,
      [general, bob],
    );

    await db.migrate(migrationsFolder);

    const membersOf = async (c: string) =>
      (
        await db.query<{ user_id: string }>(
          'select user_id from channel_members where channel_id = $1 order by user_id',
          [c],
        )
      )
        .map((r) => r.user_id)
        .sort();
    expect(await membersOf(general)).toEqual([ann, bob, cid].sort());
    expect(await membersOf(secret)).toEqual([cid]);
    expect(await membersOf(elsewhere)).toEqual([dan]);
    const [row] = await db.query<{ topic: string; archived_at: Date | null; archived_by: string | null }>(
      'select topic, archived_at, archived_by from channels where id = $1',
      [general],
    );
    expect(row).toEqual({ topic: '', archived_at: null, archived_by: null });
    const [message] = await db.query<{ kind: string; content: string }>(
      'select kind, content from channel_messages where channel_id = $1',
      [general],
    );
    expect(message).toEqual({ kind: 'text', content: 'hello' });
    // Stars are per user and channel, once each.
    await db.query('insert into channel_stars (user_id, channel_id) values ($1, $2)', [bob, general]);
    await expect(
      db.query('insert into channel_stars (user_id, channel_id) values ($1, $2)', [bob, general]),
    ).rejects.toThrow();
  });
});
