import { describe, expect, it } from 'vitest';
import { insertUser, migrationTestDatabase } from '../../test/migrations.ts';
import { migrationsFolder } from '../paths.ts';

/**
 * Migration 0014 (boards) on a database with data in it: applied after 0013 to users with lists and
 * tasks and to existing workspaces. PGlite, or a fresh PostgreSQL database in the postgres project.
 */

// The committed migrations as they were before this one: 0000..0013.
const t = migrationTestDatabase(13);

describe('migration 0014 (boards)', () => {
  it('moves existing lists onto personal boards and gives every workspace a Team board', async () => {
    const { db } = t;
    await db.migrate(t.before);
    const user = (email: string) => insertUser(db, email);
    const ann = await user('ann@example.com');
    const bob = await user('bob@example.com');
    const cid = await user('cid@example.com');
    const list = async (owner: string, title: string, position: number) =>
      (
        await db.query<{ id: string }>(
          'insert into task_lists (owner_id, title, position) values ($1, $2, $3) returning id',
          [owner, title, position],
        )
      )[0]?.id as string;
    const annTodo = await list(ann, 'Todo', 0);
    const annDone = await list(ann, 'Done', 1);
    const bobTodo = await list(bob, 'todo', 0);
    const task = (
      await db.query<{ id: string }>(
        `insert into tasks (list_id, owner_id, title) values ($1, $2, 'Write') returning id`,
        [annTodo, ann],
      )
    )[0]?.id as string;
    const ws = (
      await db.query<{ id: string }>(
        `insert into workspaces (name, description, created_by) values ('acme', 'x', $1) returning id`,
        [cid],
      )
    )[0]?.id as string;

    await db.migrate(migrationsFolder);

    const boards = await db.query<{
      id: string;
      owner_id: string | null;
      workspace_id: string | null;
      title: string;
      rev: string;
    }>('select id, owner_id, workspace_id, title, rev from task_boards order by title, owner_id');
    const personalOf = (owner: string) => boards.find((b) => b.owner_id === owner);
    expect(personalOf(ann)).toBeDefined();
    expect(personalOf(bob)).toBeDefined();
    expect(personalOf(cid)).toBeUndefined(); // no lists: created on first use
    expect(boards.filter((b) => b.workspace_id === ws).map((b) => b.title)).toEqual(['Team board']);
    const lists = await db.query<{ id: string; board_id: string; position: number }>(
      'select id, board_id, position from task_lists',
    );
    const boardOf = (id: string) => lists.find((l) => l.id === id)?.board_id;
    expect(boardOf(annTodo)).toBe(personalOf(ann)?.id);
    expect(boardOf(annDone)).toBe(personalOf(ann)?.id);
    expect(boardOf(bobTodo)).toBe(personalOf(bob)?.id);
    expect(
      (await db.query<{ list_id: string }>('select list_id from tasks where id = $1', [task]))[0]?.list_id,
    ).toBe(annTodo);
    // Lists are unique per board now, and the personal board is one per owner.
    await expect(
      db.query('insert into task_lists (owner_id, board_id, title) values ($1, $2, $3)', [
        ann,
        personalOf(ann)?.id,
        'TODO',
      ]),
    ).rejects.toThrow();
    await expect(
      db.query(`insert into task_boards (owner_id, title) values ($1, 'again')`, [ann]),
    ).rejects.toThrow();
    await expect(
      db.query(`insert into task_boards (owner_id, workspace_id, title) values ($1, $2, 'both')`, [cid, ws]),
    ).rejects.toThrow();
    // A mention notification is a valid kind.
    await db.query(`insert into task_notifications (user_id, task_id, kind) values ($1, $2, 'mention')`, [
      bob,
      task,
    ]);
  });
});
