import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { taskActivity, taskLists, tasks } from '../../db/schema.ts';
import { client, createList, createTask, shareWorkspace } from './tasks.test-helpers.ts';

let t: TestApp;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
});
afterAll(() => t.close());

/** A list's board tasks as [id, position] in board order, straight from the database. */
async function positions(listId: string) {
  const rows = await t.ctx.db
    .select({ id: tasks.id, position: tasks.position })
    .from(tasks)
    .where(eq(tasks.listId, listId))
    .orderBy(asc(tasks.position), asc(tasks.createdAt));
  return rows.map((r) => [r.id, r.position]);
}

async function listWith(owner: TestUser, n: number) {
  const list = await createList(t, owner);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await createTask(t, owner, list))._id);
  return { list, ids };
}

describe('PUT /api/tasks/{id}/position', () => {
  it('reorders within the list, shifting the others so positions stay 0..n-1', async () => {
    const owner = await createUser(t.app);
    const { list, ids } = await listWith(owner, 4);
    const [a, b, c, d] = ids as [string, string, string, string];

    const res = await api.put(`/api/tasks/${d}/position`, owner, { position: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: d, taskListId: list._id, position: 1 });
    expect(res.json().activity.at(-1)).toMatchObject({ action: 'reordered', detail: { from: 3, to: 1 } });
    expect(await positions(list._id)).toEqual([
      [a, 0],
      [d, 1],
      [b, 2],
      [c, 3],
    ]);

    // Downwards, and beyond the end (clamped to the last place).
    await api.put(`/api/tasks/${a}/position`, owner, { position: 2 });
    await api.put(`/api/tasks/${d}/position`, owner, { position: 99 });
    expect(await positions(list._id)).toEqual([
      [b, 0],
      [a, 1],
      [c, 2],
      [d, 3],
    ]);
    const board = (await api.get(`/api/tasklist/${list._id}`, owner)).json();
    expect(board.tasks.map((x: { _id: string; position: number }) => [x._id, x.position])).toEqual(
      await positions(list._id),
    );
  });

  it('refuses bad positions, assignees (403), strangers (404) and archived tasks', async () => {
    const owner = await createUser(t.app);
    const colleague = await createUser(t.app);
    const stranger = await createUser(t.app);
    await shareWorkspace(t, owner, [colleague]);
    const { list, ids } = await listWith(owner, 2);
    const [a] = ids as [string];
    await api.put(`/api/tasks/${a}/assignees`, owner, { userIds: [colleague.id] });
    const before = await positions(list._id);

    for (const payload of [{}, { position: -1 }, { position: 1.5 }, { position: '1' }]) {
      expect((await api.put(`/api/tasks/${a}/position`, owner, payload)).statusCode).toBe(400);
    }
    expect((await api.put(`/api/tasks/${a}/position`, colleague, { position: 1 })).statusCode).toBe(403);
    expect((await api.put(`/api/tasks/${a}/position`, stranger, { position: 1 })).statusCode).toBe(404);
    expect((await api.put(`/api/tasks/${a}/position`, undefined, { position: 1 })).statusCode).toBe(401);
    await api.post(`/api/tasks/${a}/archive`, owner);
    expect((await api.put(`/api/tasks/${a}/position`, owner, { position: 1 })).statusCode).toBe(400);
    expect(await positions(list._id)).toEqual(before);
  });
});

describe('PUT /api/tasks/{id}/move with a position', () => {
  it('inserts at the position, shifting the target list, and closes the gap in the source list', async () => {
    const owner = await createUser(t.app);
    const source = await listWith(owner, 3);
    const target = await listWith(owner, 3);
    const [s0, s1, s2] = source.ids as [string, string, string];
    const [t0, t1, t2] = target.ids as [string, string, string];

    const res = await api.put(`/api/tasks/${s0}/move`, owner, {
      newTaskListId: target.list._id,
      position: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ taskListId: target.list._id, position: 1 });
    expect(res.json().activity.at(-1)).toMatchObject({
      action: 'moved',
      detail: { from: source.list._id, to: target.list._id, position: 1 },
    });
    expect(await positions(target.list._id)).toEqual([
      [t0, 0],
      [s0, 1],
      [t1, 2],
      [t2, 3],
    ]);
    expect(await positions(source.list._id)).toEqual([
      [s1, 0],
      [s2, 1],
    ]);

    // No position: at the end; position 0: at the front.
    await api.put(`/api/tasks/${s1}/move`, owner, { newTaskListId: target.list._id });
    await api.put(`/api/tasks/${s2}/move`, owner, { newTaskListId: target.list._id, position: 0 });
    expect(await positions(target.list._id)).toEqual([
      [s2, 0],
      [t0, 1],
      [s0, 2],
      [t1, 3],
      [t2, 4],
      [s1, 5],
    ]);
    expect(await positions(source.list._id)).toEqual([]);
  });
});

describe('PATCH /api/tasklists/{id} {position}', () => {
  it('keeps list positions dense 0..n-1 whichever way a list moves', async () => {
    const owner = await createUser(t.app);
    const lists = [];
    for (let i = 0; i < 4; i++) lists.push((await createList(t, owner))._id);
    const [a, b, c, d] = lists as [string, string, string, string];
    const stored = async () =>
      (
        await t.ctx.db
          .select({ id: taskLists.id, position: taskLists.position })
          .from(taskLists)
          .where(eq(taskLists.ownerId, owner.id))
          .orderBy(asc(taskLists.position))
      ).map((r) => [r.id, r.position]);

    expect((await api.patch(`/api/tasklists/${a}`, owner, { position: 2 })).json()).toMatchObject({
      position: 2,
    });
    expect(await stored()).toEqual([
      [b, 0],
      [c, 1],
      [a, 2],
      [d, 3],
    ]);
    await api.patch(`/api/tasklists/${d}`, owner, { position: 0 });
    await api.patch(`/api/tasklists/${b}`, owner, { position: 50 });
    expect(await stored()).toEqual([
      [d, 0],
      [c, 1],
      [a, 2],
      [b, 3],
    ]);
    const other = await createUser(t.app);
    expect((await api.patch(`/api/tasklists/${a}`, other, { position: 0 })).statusCode).toBe(404);
  });
});

it('records reordering in the activity only when the task actually moved', async () => {
  const owner = await createUser(t.app);
  const { ids } = await listWith(owner, 2);
  const [a] = ids as [string];
  await api.put(`/api/tasks/${a}/position`, owner, { position: 0 });
  const rows = await t.ctx.db.select().from(taskActivity).where(eq(taskActivity.taskId, a));
  expect(rows.map((r) => r.action)).toEqual(['created']);
});
