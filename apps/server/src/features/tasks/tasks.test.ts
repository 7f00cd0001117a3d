import {
  TASK_ACTIVITY_SHOWN,
  TASK_CHECKLIST_MAX,
  TASK_LABELS_MAX,
  TASK_MESSAGES,
} from '@cohort/shared/tasks';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  taskActivity,
  taskAssignees,
  taskChecklistItems,
  taskComments,
  taskLabels,
  taskLists,
  tasks,
} from '../../db/schema.ts';
import { client, createList, createTask, shareWorkspace, uniqueTitle } from './tasks.test-helpers.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let owner: TestUser;
let colleague: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  owner = await createUser(t.app, { firstName: 'Olive', lastName: 'Owner' });
  colleague = await createUser(t.app, { firstName: 'Cole', lastName: 'League' });
  stranger = await createUser(t.app, { firstName: 'Stan', lastName: 'Ranger' });
  await shareWorkspace(t, owner, [colleague]);
});
afterAll(() => t.close());

const missingId = '00000000-0000-4000-8000-000000000000';

/** Every stored row of a task, in a stable order: "nothing changed" compares these. */
async function snapshotTask(taskId: string) {
  const db = t.ctx.db;
  return {
    task: await db.select().from(tasks).where(eq(tasks.id, taskId)),
    assignees: await db.select().from(taskAssignees).where(eq(taskAssignees.taskId, taskId)),
    comments: await db.select().from(taskComments).where(eq(taskComments.taskId, taskId)),
    checklist: await db
      .select()
      .from(taskChecklistItems)
      .where(eq(taskChecklistItems.taskId, taskId))
      .orderBy(asc(taskChecklistItems.id)),
    labels: await db
      .select()
      .from(taskLabels)
      .where(eq(taskLabels.taskId, taskId))
      .orderBy(asc(taskLabels.label)),
    activity: await db.select().from(taskActivity).where(eq(taskActivity.taskId, taskId)),
  };
}

describe('task lists', () => {
  it('creates a list in the spec shape, ignoring identity fields, and lists it in board order', async () => {
    const me = await createUser(t.app);
    const res = await api.post('/api/tasklists', me, {
      title: '  To do ',
      createdBy: stranger.email,
      cards: [],
    });
    expect(res.statusCode).toBe(201);
    const list = res.json();
    expect(list).toMatchObject({
      name: 'To do',
      title: 'To do',
      createdBy: me.email,
      position: 0,
      cards: [],
      tasks: [],
    });
    await createList(t, me, 'Doing');
    const byName = await api.post('/api/tasklists', me, { name: 'Done' });
    expect(byName.statusCode).toBe(201);

    const all = await api.get('/api/tasklists?userEmail=someone@else.example', me);
    expect(all.statusCode).toBe(200);
    expect(all.json().map((l: { name: string }) => l.name)).toEqual(['To do', 'Doing', 'Done']);
    const one = await api.get(`/api/tasklist/${list._id}`, me);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ _id: list._id, name: 'To do' });
  });

  it.each([
    ['a blank name', { title: '   ' }],
    ['no name', {}],
    ['an empty name', { title: '' }],
  ])('refuses %s with the spec sentence', async (_case, payload) => {
    const res = await api.post('/api/tasklists', owner, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'List name cannot be empty.', field: 'title' });
  });

  it('refuses overlong and wrong-typed names', async () => {
    const long = await api.post('/api/tasklists', owner, { title: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/200 characters/);
    const typed = await api.post('/api/tasklists', owner, { title: 42 });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().field).toBe('title');
  });

  it('refuses a name the caller already uses, whatever its case, but not one another user uses', async () => {
    const name = uniqueTitle('Backlog');
    await createList(t, owner, name);
    const again = await api.post('/api/tasklists', owner, { title: name.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have a list with this name');
    expect((await api.post('/api/tasklists', stranger, { title: name })).statusCode).toBe(201);
  });

  it('renames and reorders a list', async () => {
    const me = await createUser(t.app);
    const a = await createList(t, me, 'A');
    const b = await createList(t, me, 'B');
    const c = await createList(t, me, 'C');
    const moved = await api.patch(`/api/tasklists/${c._id}`, me, { position: 0, title: 'C first' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ name: 'C first', position: 0 });
    const all = (await api.get('/api/tasklists', me)).json();
    expect(all.map((l: { _id: string }) => l._id)).toEqual([c._id, a._id, b._id]);
    expect((await api.patch(`/api/tasklists/${a._id}`, me, { title: ' ' })).json()).toEqual({
      message: 'List name cannot be empty.',
      field: 'title',
    });
    expect((await api.patch(`/api/tasklists/${a._id}`, me, { title: 'b' })).statusCode).toBe(409);
    expect((await api.patch(`/api/tasklists/${a._id}`, me, {})).statusCode).toBe(400);
    expect((await api.patch(`/api/tasklists/${a._id}`, me, { position: -1 })).statusCode).toBe(400);
  });

  it('deletes an empty list, and a non-empty one only with force=true', async () => {
    const empty = await createList(t, owner);
    expect((await api.del(`/api/tasklists/${empty._id}`, owner)).statusCode).toBe(204);
    expect((await api.get(`/api/tasklist/${empty._id}`, owner)).statusCode).toBe(404);

    const full = await createList(t, owner);
    const task = await createTask(t, owner, full);
    await api.post(`/api/tasks/${task._id}/archive`, owner);
    const refused = await api.del(`/api/tasklists/${full._id}`, owner);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/force=true/);
    expect((await api.get(`/api/task/${task._id}`, owner)).statusCode).toBe(200);
    expect((await api.del(`/api/tasklists/${full._id}?force=true`, owner)).statusCode).toBe(204);
    expect((await api.get(`/api/task/${task._id}`, owner)).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.id, task._id))).toEqual([]);
  });

  it("answers another user's list, an unknown id and a malformed id with 404 and changes nothing", async () => {
    const list = await createList(t, owner);
    await createTask(t, owner, list);
    const before = await t.ctx.db.select().from(taskLists).where(eq(taskLists.id, list._id));
    for (const id of [list._id, missingId, 'not-a-uuid']) {
      expect((await api.get(`/api/tasklist/${id}`, stranger)).statusCode).toBe(404);
      expect((await api.patch(`/api/tasklists/${id}`, stranger, { title: 'mine' })).statusCode).toBe(404);
      expect((await api.del(`/api/tasklists/${id}?force=true`, stranger)).statusCode).toBe(404);
      expect((await api.get(`/api/tasks?taskListId=${id}`, stranger)).statusCode).toBe(404);
    }
    expect(
      (await api.get(`/api/tasks?taskListName=${encodeURIComponent(list.name)}`, stranger)).statusCode,
    ).toBe(404);
    expect(await t.ctx.db.select().from(taskLists).where(eq(taskLists.id, list._id))).toEqual(before);
    expect(
      (await api.get('/api/tasklists', stranger)).json().map((l: { _id: string }) => l._id),
    ).not.toContain(list._id);
  });

  it('needs a session', async () => {
    expect((await api.get('/api/tasklists')).statusCode).toBe(401);
    expect((await api.post('/api/tasklists', undefined, { title: 'x' })).statusCode).toBe(401);
    expect((await api.get(`/api/task/${missingId}`)).statusCode).toBe(401);
  });
});

describe('tasks', () => {
  it('creates a task by list name with the defaults and returns the spec shape', async () => {
    const list = await createList(t, owner);
    const res = await api.post('/api/tasks', owner, {
      title: ' Write docs ',
      Tasklist: list.name.toUpperCase(),
      createdBy: stranger.email,
    });
    expect(res.statusCode).toBe(201);
    const task = res.json();
    expect(task).toMatchObject({
      title: 'Write docs',
      description: '',
      priority: 'Medium',
      createdBy: owner.email,
      taskListId: list._id,
      labels: [],
      checklist: [],
      assignedTo: [],
      dates: { deadline: null },
      comments: [],
      archived: false,
      position: 0,
    });
    expect(task.activity).toEqual([
      expect.objectContaining({
        action: 'created',
        user: { firstName: 'Olive', lastName: 'Owner', email: owner.email },
      }),
    ]);
    const second = await createTask(t, owner, list, { priority: 'High', description: 'Details' });
    expect(second).toMatchObject({ priority: 'High', description: 'Details', position: 1 });

    const byName = await api.get(
      `/api/tasks?taskListName=${encodeURIComponent(list.name)}&userEmail=x`,
      owner,
    );
    expect(byName.json().map((x: { _id: string }) => x._id)).toEqual([task._id, second._id]);
    const byId = await api.get(`/api/tasks?taskListId=${list._id}`, owner);
    expect(byId.json().map((x: { _id: string }) => x._id)).toEqual([task._id, second._id]);
    const board = (await api.get(`/api/tasklist/${list._id}`, owner)).json();
    expect(board.tasks.map((x: { _id: string }) => x._id)).toEqual([task._id, second._id]);
    const mine = (await api.get('/api/tasks', owner)).json().map((x: { _id: string }) => x._id);
    expect(mine).toEqual(expect.arrayContaining([task._id, second._id]));
  });

  it.each([
    ['no title', { title: undefined }, 'title', /Title is required/],
    ['a blank title', { title: '  ' }, 'title', /Title is required/],
    ['an overlong title', { title: 'x'.repeat(201) }, 'title', /200 characters/],
    ['an overlong description', { description: 'd'.repeat(10_001) }, 'description', /10000 characters/],
    ['an unknown priority', { priority: 'Urgent' }, 'priority', /Low, Medium or High/],
    ['a title of the wrong type', { title: 7 }, 'title', /expected string/],
    ['no list', { taskListId: undefined }, 'Tasklist', /Choose a task list/],
  ])('refuses %s with 400 and stores nothing', async (_case, change, field, message) => {
    const me = await createUser(t.app);
    const list = await createList(t, me);
    const res = await api.post('/api/tasks', me, { title: 'ok', taskListId: list._id, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(res.json().message).toMatch(message);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.ownerId, me.id))).toEqual([]);
  });

  it("refuses to add a task to another user's list or an unknown one (404, nothing stored)", async () => {
    const list = await createList(t, owner);
    expect((await api.post('/api/tasks', stranger, { title: 'x', taskListId: list._id })).statusCode).toBe(
      404,
    );
    expect((await api.post('/api/tasks', stranger, { title: 'x', Tasklist: list.name })).statusCode).toBe(
      404,
    );
    expect(
      (await api.post('/api/tasks', owner, { title: 'x', Tasklist: uniqueTitle('nope') })).statusCode,
    ).toBe(404);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.listId, list._id))).toEqual([]);
  });

  it('edits the description (and title and priority), refusing bad input', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const res = await api.put(`/api/tasks/${task._id}`, owner, { description: 'New text' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ description: 'New text' });
    const both = await api.put(`/api/tasks/${task._id}`, owner, { title: 'Renamed', priority: 'Low' });
    expect(both.json()).toMatchObject({ title: 'Renamed', priority: 'Low', description: 'New text' });
    expect(both.json().activity.map((a: { action: string }) => a.action)).toEqual([
      'created',
      'updated',
      'updated',
    ]);
    expect(
      (await api.put(`/api/tasks/${task._id}`, owner, { description: 'd'.repeat(10_001) })).statusCode,
    ).toBe(400);
    expect((await api.put(`/api/tasks/${task._id}`, owner, { description: 5 })).statusCode).toBe(400);
    expect((await api.put(`/api/tasks/${task._id}`, owner, {})).statusCode).toBe(400);
    expect((await api.get(`/api/task/${task._id}`, owner)).json().description).toBe('New text');
  });

  it('moves a task to another list at a position, refusing the current list', async () => {
    const from = await createList(t, owner);
    const to = await createList(t, owner);
    const task = await createTask(t, owner, from);
    const first = await createTask(t, owner, to);
    const second = await createTask(t, owner, to);

    const same = await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: from._id });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ message: 'The task is already in this list', field: 'newTaskListId' });

    const res = await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: to._id, position: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ taskListId: to._id, position: 1 });
    const board = (await api.get(`/api/tasks?taskListId=${to._id}`, owner)).json();
    expect(board.map((x: { _id: string }) => x._id)).toEqual([first._id, task._id, second._id]);
    expect((await api.get(`/api/tasks?taskListId=${from._id}`, owner)).json()).toEqual([]);
    const activity = res.json().activity.at(-1);
    expect(activity).toMatchObject({ action: 'moved', detail: { from: from._id, to: to._id } });

    // To the end when no position is given.
    const back = await api.put(`/api/tasks/${first._id}/move`, owner, { newTaskListId: from._id });
    expect(back.json()).toMatchObject({ taskListId: from._id, position: 0 });
  });

  it("refuses to move a task into another user's list or without a target", async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const theirs = await createList(t, stranger);
    const before = await snapshotTask(task._id);
    expect(
      (await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: theirs._id })).statusCode,
    ).toBe(404);
    expect((await api.put(`/api/tasks/${task._id}/move`, owner, {})).statusCode).toBe(400);
    expect((await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: 12 })).statusCode).toBe(400);
    expect(await snapshotTask(task._id)).toEqual(before);
  });

  it('sets and removes the deadline, refusing something that is not a date', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const set = await api.put(`/api/tasks/${task._id}/deadline`, owner, { deadline: '2030-05-17' });
    expect(set.statusCode).toBe(200);
    expect(set.json().dates).toEqual({ deadline: '2030-05-17T00:00:00.000Z' });
    const time = await api.put(`/api/tasks/${task._id}/deadline`, owner, {
      deadline: '2030-05-17T10:30:00+02:00',
    });
    expect(time.json().dates).toEqual({ deadline: '2030-05-17T08:30:00.000Z' });
    for (const deadline of [
      'tomorrow',
      '2030-13-45',
      20300517,
      '',
      '0000-01-01',
      '0000-06-30T10:00:00Z',
      '+275760-09-13',
    ]) {
      const bad = await api.put(`/api/tasks/${task._id}/deadline`, owner, { deadline });
      expect(bad.statusCode).toBe(400);
    }
    expect((await api.put(`/api/tasks/${task._id}/deadline`, owner, {})).statusCode).toBe(400);
    const cleared = await api.put(`/api/tasks/${task._id}/deadline`, owner, { deadline: null });
    expect(cleared.json().dates).toEqual({ deadline: null });
  });

  it('adds comments with author and time; a blank or overlong comment is refused and not stored', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const res = await api.post(`/api/tasks/${task._id}/comments`, owner, { text: ' Looks good ', user: 'x' });
    expect(res.statusCode).toBe(201);
    expect(res.json().comments).toEqual([
      {
        _id: expect.any(String),
        text: 'Looks good',
        time: expect.any(String),
        user: { firstName: 'Olive', lastName: 'Owner', email: owner.email },
      },
    ]);
    for (const payload of [{ text: '   ' }, {}, { text: 'c'.repeat(2001) }, { text: 3 }]) {
      expect((await api.post(`/api/tasks/${task._id}/comments`, owner, payload)).statusCode).toBe(400);
    }
    expect(await t.ctx.db.select().from(taskComments).where(eq(taskComments.taskId, task._id))).toHaveLength(
      1,
    );
  });

  it('manages the checklist: add, tick, rename, delete; blank items and unknown ids refused', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const other = await createTask(t, owner, await createList(t, owner));
    await api.post(`/api/tasks/${task._id}/checklist`, owner, { title: 'One', user: 'x' });
    const added = await api.post(`/api/tasks/${task._id}/checklist`, owner, { title: 'Two' });
    expect(added.statusCode).toBe(201);
    const [one, two] = added.json().checklist;
    expect([one, two]).toEqual([
      { _id: expect.any(String), title: 'One', status: false },
      { _id: expect.any(String), title: 'Two', status: false },
    ]);
    const ticked = await api.put(`/api/tasks/${task._id}/checklist/${one._id}`, owner, { status: true });
    expect(ticked.statusCode).toBe(200);
    expect(ticked.json().checklist[0]).toEqual({ ...one, status: true });
    const renamed = await api.put(`/api/tasks/${task._id}/checklist/${two._id}`, owner, { title: 'Deux' });
    expect(renamed.json().checklist[1]).toEqual({ ...two, title: 'Deux' });
    const removed = await api.del(`/api/tasks/${task._id}/checklist/${two._id}`, owner);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().checklist).toEqual([{ ...one, status: true }]);

    for (const payload of [{ title: ' ' }, {}, { title: 'x'.repeat(201) }, { title: false }]) {
      expect((await api.post(`/api/tasks/${task._id}/checklist`, owner, payload)).statusCode).toBe(400);
    }
    expect(
      (await api.put(`/api/tasks/${task._id}/checklist/${one._id}`, owner, { status: 'yes' })).statusCode,
    ).toBe(400);
    expect((await api.put(`/api/tasks/${task._id}/checklist/${one._id}`, owner, {})).statusCode).toBe(400);
    expect(
      (await api.put(`/api/tasks/${other._id}/checklist/${one._id}`, owner, { status: false })).statusCode,
    ).toBe(404);
    expect((await api.del(`/api/tasks/${task._id}/checklist/${two._id}`, owner)).statusCode).toBe(404);
    expect((await api.del(`/api/tasks/${task._id}/checklist/nope`, owner)).statusCode).toBe(404);
    expect(
      await t.ctx.db.select().from(taskChecklistItems).where(eq(taskChecklistItems.taskId, task._id)),
    ).toHaveLength(1);
  });

  it('bounds what others can add to a task: labels and checklist items, also when added at once', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const labels = await Promise.all(
      Array.from({ length: TASK_LABELS_MAX + 5 }, (_, i) =>
        api.post(`/api/tasks/${task._id}/labels`, owner, { label: `label ${i}` }),
      ),
    );
    expect(labels.filter((r) => r.statusCode === 201)).toHaveLength(TASK_LABELS_MAX);
    for (const r of labels.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(TASK_MESSAGES.tooManyLabels);
    }
    for (let i = 0; i < TASK_CHECKLIST_MAX; i++) {
      expect(
        (await api.post(`/api/tasks/${task._id}/checklist`, owner, { title: `step ${i}` })).statusCode,
      ).toBe(201);
    }
    const over = await api.post(`/api/tasks/${task._id}/checklist`, owner, { title: 'one too many' });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(TASK_MESSAGES.tooManyChecklistItems);
  });

  it('adds labels without duplicates and removes URL-encoded ones', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const label = 'needs review/QA & more';
    const res = await api.post(`/api/tasks/${task._id}/labels`, owner, { label: ` ${label} ` });
    expect(res.statusCode).toBe(201);
    expect(res.json().labels).toEqual([label]);
    const dup = await api.post(`/api/tasks/${task._id}/labels`, owner, { label });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('This label is already on the task');
    for (const payload of [{ label: '  ' }, {}, { label: 'l'.repeat(51) }, { label: ['a'] }]) {
      expect((await api.post(`/api/tasks/${task._id}/labels`, owner, payload)).statusCode).toBe(400);
    }
    const removed = await api.del(`/api/tasks/${task._id}/labels/${encodeURIComponent(label)}`, owner);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().labels).toEqual([]);
    expect(
      (await api.del(`/api/tasks/${task._id}/labels/${encodeURIComponent(label)}`, owner)).statusCode,
    ).toBe(404);
  });

  it('archives a task off the board into the archive, and restores it', async () => {
    const list = await createList(t, owner);
    const task = await createTask(t, owner, list);
    const archived = await api.post(`/api/tasks/${task._id}/archive`, owner);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ archived: true, taskListId: list._id });
    expect((await api.get(`/api/tasklist/${list._id}`, owner)).json().tasks).toEqual([]);
    expect((await api.get('/api/tasks/archived', owner)).json().map((x: { _id: string }) => x._id)).toContain(
      task._id,
    );
    expect((await api.get(`/api/task/${task._id}`, owner)).json().archived).toBe(true);
    // Archiving again changes nothing.
    expect((await api.post(`/api/tasks/${task._id}/archive`, owner)).json().activity).toHaveLength(2);

    const restored = await api.post(`/api/tasks/${task._id}/restore`, owner);
    expect(restored.json()).toMatchObject({ archived: false });
    expect(
      (await api.get(`/api/tasklist/${list._id}`, owner)).json().tasks.map((x: { _id: string }) => x._id),
    ).toEqual([task._id]);
    expect(
      (await api.get('/api/tasks/archived', owner)).json().map((x: { _id: string }) => x._id),
    ).not.toContain(task._id);
    expect(restored.json().activity.map((a: { action: string }) => a.action)).toEqual([
      'created',
      'archived',
      'restored',
    ]);
  });

  it(`shows the newest ${TASK_ACTIVITY_SHOWN} activity entries of a busy task, oldest of them first`, async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const base = Date.now();
    await t.ctx.db.insert(taskActivity).values(
      Array.from({ length: TASK_ACTIVITY_SHOWN + 50 }, (_, i) => ({
        taskId: task._id,
        userId: owner.id,
        action: 'updated',
        detail: { n: i },
        createdAt: new Date(base + (i + 1) * 1000),
      })),
    );
    const activity = (await api.get(`/api/task/${task._id}`, owner)).json().activity as Array<{
      detail: { n?: number };
    }>;
    expect(activity).toHaveLength(TASK_ACTIVITY_SHOWN);
    expect(activity.at(-1)?.detail.n).toBe(TASK_ACTIVITY_SHOWN + 49);
    expect(activity[0]?.detail.n).toBe(50);
  });

  it('records every change in the activity: who, what, when', async () => {
    const list = await createList(t, owner);
    const target = await createList(t, owner);
    const task = await createTask(t, owner, list);
    await api.put(`/api/tasks/${task._id}`, owner, { description: 'x' });
    await api.put(`/api/tasks/${task._id}/deadline`, owner, { deadline: '2031-01-01' });
    await api.post(`/api/tasks/${task._id}/comments`, owner, { text: 'hi' });
    const item = (await api.post(`/api/tasks/${task._id}/checklist`, owner, { title: 'c' })).json()
      .checklist[0];
    await api.put(`/api/tasks/${task._id}/checklist/${item._id}`, owner, { status: true });
    await api.del(`/api/tasks/${task._id}/checklist/${item._id}`, owner);
    await api.post(`/api/tasks/${task._id}/labels`, owner, { label: 'l' });
    await api.del(`/api/tasks/${task._id}/labels/l`, owner);
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [colleague.id] });
    await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: target._id });
    await api.post(`/api/tasks/${task._id}/archive`, owner);
    await api.post(`/api/tasks/${task._id}/restore`, owner);
    const detail = (await api.get(`/api/task/${task._id}`, owner)).json();
    expect(detail.activity.map((a: { action: string }) => a.action)).toEqual([
      'created',
      'updated',
      'deadline',
      'commented',
      'checklist.added',
      'checklist.updated',
      'checklist.removed',
      'label.added',
      'label.removed',
      'assigned',
      'moved',
      'archived',
      'restored',
    ]);
    for (const a of detail.activity) {
      expect(a.user).toEqual({ firstName: 'Olive', lastName: 'Owner', email: owner.email });
      expect(Number.isNaN(Date.parse(a.time))).toBe(false);
    }
    expect(detail.activity[9].detail).toEqual({ added: [colleague.id], removed: [] });
  });
});

describe('assignees and authorization', () => {
  it('assigns colleagues, who see the task under "assigned" and may work on it but not reorganise it', async () => {
    const list = await createList(t, owner);
    const task = await createTask(t, owner, list);
    const res = await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [colleague.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().assignedTo).toEqual([
      { _id: colleague.id, firstName: 'Cole', lastName: 'League', email: colleague.email },
    ]);
    expect(
      (await api.get('/api/tasks/assigned', colleague)).json().map((x: { _id: string }) => x._id),
    ).toContain(task._id);
    expect((await api.get(`/api/task/${task._id}`, colleague)).statusCode).toBe(200);

    // Allowed: description, deadline, comment, checklist, labels.
    expect(
      (await api.put(`/api/tasks/${task._id}`, colleague, { description: 'by colleague' })).statusCode,
    ).toBe(200);
    expect(
      (await api.put(`/api/tasks/${task._id}/deadline`, colleague, { deadline: '2030-01-01' })).statusCode,
    ).toBe(200);
    const commented = await api.post(`/api/tasks/${task._id}/comments`, colleague, { text: 'on it' });
    expect(commented.statusCode).toBe(201);
    expect(commented.json().comments[0].user.email).toBe(colleague.email);
    const item = (await api.post(`/api/tasks/${task._id}/checklist`, colleague, { title: 'step' })).json()
      .checklist[0];
    expect(
      (await api.put(`/api/tasks/${task._id}/checklist/${item._id}`, colleague, { status: true })).statusCode,
    ).toBe(200);
    expect((await api.post(`/api/tasks/${task._id}/labels`, colleague, { label: 'mine' })).statusCode).toBe(
      201,
    );

    // Forbidden: move, archive, restore, assign; and the owner's list stays private.
    const before = await snapshotTask(task._id);
    const other = await createList(t, owner);
    expect(
      (await api.put(`/api/tasks/${task._id}/move`, colleague, { newTaskListId: other._id })).statusCode,
    ).toBe(403);
    expect((await api.post(`/api/tasks/${task._id}/archive`, colleague)).statusCode).toBe(403);
    expect((await api.post(`/api/tasks/${task._id}/restore`, colleague)).statusCode).toBe(403);
    expect((await api.put(`/api/tasks/${task._id}/assignees`, colleague, { userIds: [] })).statusCode).toBe(
      403,
    );
    expect((await api.get(`/api/tasklist/${list._id}`, colleague)).statusCode).toBe(404);
    expect(await snapshotTask(task._id)).toEqual(before);

    // Unassigned: the task is gone for them.
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [] });
    expect((await api.get(`/api/task/${task._id}`, colleague)).statusCode).toBe(404);
    expect(
      (await api.get('/api/tasks/assigned', colleague)).json().map((x: { _id: string }) => x._id),
    ).not.toContain(task._id);
  });

  it('refuses assignees who share no workspace with the owner, and malformed ids (nothing changed)', async () => {
    const task = await createTask(t, owner, await createList(t, owner));
    const before = await snapshotTask(task._id);
    const res = await api.put(`/api/tasks/${task._id}/assignees`, owner, {
      userIds: [colleague.id, stranger.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Tasks can only be assigned to people who share a workspace with the task owner',
      field: 'userIds',
    });
    expect(
      (await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [missingId] })).statusCode,
    ).toBe(400);
    expect((await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: ['bob'] })).statusCode).toBe(
      400,
    );
    expect((await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: 'x' })).statusCode).toBe(400);
    expect(await snapshotTask(task._id)).toEqual(before);
    // The owner may assign themselves.
    const self = await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [owner.id] });
    expect(self.json().assignedTo.map((a: { _id: string }) => a._id)).toEqual([owner.id]);
  });

  it("answers every route on another user's task with 404 and changes nothing", async () => {
    const list = await createList(t, owner);
    const task = await createTask(t, owner, list);
    const item = (await api.post(`/api/tasks/${task._id}/checklist`, owner, { title: 'x' })).json()
      .checklist[0];
    await api.post(`/api/tasks/${task._id}/labels`, owner, { label: 'l' });
    const theirList = await createList(t, stranger);
    const before = await snapshotTask(task._id);
    const id = task._id;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/task/${id}`],
      ['PUT', `/api/tasks/${id}`, { description: 'hacked' }],
      ['PUT', `/api/tasks/${id}/move`, { newTaskListId: theirList._id }],
      ['PUT', `/api/tasks/${id}/deadline`, { deadline: null }],
      ['PUT', `/api/tasks/${id}/assignees`, { userIds: [] }],
      ['POST', `/api/tasks/${id}/comments`, { text: 'hi' }],
      ['POST', `/api/tasks/${id}/checklist`, { title: 'x' }],
      ['PUT', `/api/tasks/${id}/checklist/${item._id}`, { status: true }],
      ['DELETE', `/api/tasks/${id}/checklist/${item._id}`],
      ['POST', `/api/tasks/${id}/labels`, { label: 'z' }],
      ['DELETE', `/api/tasks/${id}/labels/l`],
      ['POST', `/api/tasks/${id}/archive`, {}],
      ['POST', `/api/tasks/${id}/restore`, {}],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await api.call(method as 'GET', url, stranger, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: 'Task not found' });
    }
    expect(await snapshotTask(task._id)).toEqual(before);
    for (const bad of [missingId, 'not-a-uuid']) {
      expect((await api.get(`/api/task/${bad}`, owner)).statusCode).toBe(404);
      expect((await api.post(`/api/tasks/${bad}/comments`, owner, { text: 'x' })).statusCode).toBe(404);
    }
    expect((await api.get('/api/tasks', stranger)).json().map((x: { _id: string }) => x._id)).not.toContain(
      id,
    );
    expect((await api.get('/api/tasks/archived', stranger)).json()).toEqual([]);
    expect((await api.get('/api/tasks/assigned', stranger)).json()).toEqual([]);
  });
});
