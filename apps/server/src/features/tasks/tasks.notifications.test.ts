import type { AddressInfo } from 'node:net';
import { TASK_EVENTS, TASKS_NAMESPACE, type TaskNotificationEvent } from '@cohort/shared/tasks';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { taskNotifications } from '../../db/schema.ts';
import { eventually } from '../chat/chat.test-helpers.ts';
import { client, createList, createTask, shareWorkspace } from './tasks.test-helpers.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  api = client(t);
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${TASKS_NAMESPACE}`;
});
afterAll(async () => {
  for (const s of sockets.splice(0)) s.close();
  await t.close();
});

const HOUR = 60 * 60 * 1000;

/** An owner, two colleagues sharing a workspace with them, and one of the owner's tasks. */
async function team() {
  const owner = await createUser(t.app, { firstName: 'Olive', lastName: 'Owner' });
  const ann = await createUser(t.app, { firstName: 'Ann', lastName: 'Assignee' });
  const bob = await createUser(t.app, { firstName: 'Bob', lastName: 'Builder' });
  await shareWorkspace(t, owner, [ann, bob]);
  const task = await createTask(t, owner, await createList(t, owner));
  return { owner, ann, bob, task };
}

async function notificationsOf(user: TestUser, query = '') {
  const res = await api.get(`/api/tasks/notifications${query}`, user);
  expect(res.statusCode).toBe(200);
  return res.json() as TaskNotificationEvent[];
}

async function tab(user: TestUser) {
  const socket = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    auth: { token: user.token },
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  return socket;
}

describe('task notifications', () => {
  it('notifies a new assignee (not the assigning owner), with task and actor', async () => {
    const { owner, ann, task } = await team();
    const res = await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id, owner.id] });
    expect(res.statusCode).toBe(200);

    const [only, ...rest] = await notificationsOf(ann);
    expect(rest).toEqual([]);
    expect(only).toEqual({
      _id: expect.any(String),
      kind: 'assigned',
      task: { _id: task._id, title: task.title, taskListId: task.taskListId },
      actor: { firstName: 'Olive', lastName: 'Owner', email: owner.email },
      createdAt: expect.any(String),
      read: false,
    });
    expect(await notificationsOf(owner)).toEqual([]);

    // Re-sending the same assignees creates nothing new.
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id, owner.id] });
    expect(await notificationsOf(ann)).toHaveLength(1);
  });

  it('notifies the owner and assignees of a comment, never the commenter, newest first', async () => {
    const { owner, ann, bob, task } = await team();
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id, bob.id] });
    t.advance(1000);
    expect((await api.post(`/api/tasks/${task._id}/comments`, ann, { text: 'Done?' })).statusCode).toBe(201);

    const forOwner = await notificationsOf(owner);
    expect(forOwner.map((n) => [n.kind, n.actor?.email])).toEqual([['comment', ann.email]]);
    const forBob = await notificationsOf(bob);
    expect(forBob.map((n) => n.kind)).toEqual(['comment', 'assigned']);
    expect(forBob[0]?.actor?.email).toBe(ann.email);
    // Ann commented and was assigned: only the assignment.
    expect((await notificationsOf(ann)).map((n) => n.kind)).toEqual(['assigned']);

    // A refused (blank) comment notifies nobody.
    await api.post(`/api/tasks/${task._id}/comments`, ann, { text: '  ' });
    expect(await notificationsOf(owner)).toHaveLength(1);
  });

  it('creates a due notification once for tasks due within 24 hours, for owner and assignee', async () => {
    const { owner, ann, task } = await team();
    const list = await createList(t, owner);
    const later = await createTask(t, owner, list);
    const archived = await createTask(t, owner, list);
    const now = t.ctx.now().getTime();
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id] });
    await api.put(`/api/tasks/${task._id}/deadline`, owner, {
      deadline: new Date(now + 5 * HOUR).toISOString(),
    });
    await api.put(`/api/tasks/${later._id}/deadline`, owner, {
      deadline: new Date(now + 30 * HOUR).toISOString(),
    });
    await api.put(`/api/tasks/${archived._id}/deadline`, owner, {
      deadline: new Date(now + HOUR).toISOString(),
    });
    await api.post(`/api/tasks/${archived._id}/archive`, owner);

    const first = await notificationsOf(owner);
    expect(first.map((n) => [n.kind, n.task._id, n.actor])).toEqual([['due', task._id, null]]);
    expect((await notificationsOf(owner)).map((n) => n._id)).toEqual(first.map((n) => n._id));
    expect((await notificationsOf(ann)).filter((n) => n.kind === 'due').map((n) => n.task._id)).toEqual([
      task._id,
    ]);

    // Ten hours on, the second task is within 24 hours too: one more, and still one for the first.
    t.advance(10 * HOUR);
    const after = await notificationsOf(owner);
    expect(after.map((n) => [n.kind, n.task._id])).toEqual([
      ['due', later._id],
      ['due', task._id],
    ]);
    const stored = await t.ctx.db
      .select()
      .from(taskNotifications)
      .where(eq(taskNotifications.userId, owner.id));
    expect(stored).toHaveLength(2);
  });

  it('marks one read (own only; others 404), filters unread, and marks all read', async () => {
    const { owner, ann, bob, task } = await team();
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id, bob.id] });
    t.advance(1000);
    await api.post(`/api/tasks/${task._id}/comments`, owner, { text: 'one' });
    t.advance(1000);
    await api.post(`/api/tasks/${task._id}/comments`, owner, { text: 'two' });
    const [newest, middle, oldest] = await notificationsOf(ann);
    if (!newest || !middle || !oldest) throw new Error('expected three notifications');

    const read = await api.post(`/api/tasks/notifications/${middle._id}/read`, ann);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ ...middle, read: true });
    expect((await api.post(`/api/tasks/notifications/${middle._id}/read`, ann)).json().read).toBe(true);
    expect((await notificationsOf(ann, '?unread=true')).map((n) => n._id)).toEqual([newest._id, oldest._id]);

    // Someone else's notification, a missing one and a malformed id are all 404; nothing changes.
    for (const [who, id] of [
      [bob, newest._id],
      [owner, newest._id],
      [ann, '00000000-0000-4000-8000-000000000000'],
      [ann, 'nope'],
    ] as const) {
      const res = await api.post(`/api/tasks/notifications/${id}/read`, who);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Notification not found');
    }
    expect((await api.post(`/api/tasks/notifications/${newest._id}/read`, undefined)).statusCode).toBe(401);
    expect((await notificationsOf(ann, '?unread=true')).map((n) => n._id)).toEqual([newest._id, oldest._id]);
    expect((await notificationsOf(bob, '?unread=true')).length).toBe(3);

    const all = await api.post('/api/tasks/notifications/read-all', ann);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({ updated: 2 });
    expect(await notificationsOf(ann, '?unread=true')).toEqual([]);
    expect((await notificationsOf(ann)).every((n) => n.read)).toBe(true);
    expect((await api.post('/api/tasks/notifications/read-all', ann)).json()).toEqual({ updated: 0 });
    expect((await notificationsOf(bob, '?unread=true')).length).toBe(3);
    expect((await api.get('/api/tasks/notifications?unread=maybe', ann)).statusCode).toBe(400);
  });

  it('hides notifications of a task the user can no longer see', async () => {
    const { owner, ann, task } = await team();
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id] });
    const [n] = await notificationsOf(ann);
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [] });
    expect(await notificationsOf(ann)).toEqual([]);
    expect((await api.post(`/api/tasks/notifications/${n?._id}/read`, ann)).statusCode).toBe(404);
  });

  it("pushes a new notification to the recipient's tabs only, after the commit", async () => {
    const { owner, ann, bob, task } = await team();
    const annTab = await tab(ann);
    const ownerTab = await tab(owner);
    const bobTab = await tab(bob);
    const heard: Record<string, TaskNotificationEvent[]> = { owner: [], bob: [] };
    ownerTab.on(TASK_EVENTS.notification, (e: TaskNotificationEvent) => heard.owner?.push(e));
    bobTab.on(TASK_EVENTS.notification, (e: TaskNotificationEvent) => heard.bob?.push(e));
    const pushed = new Promise<TaskNotificationEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no notification within 3 s')), 3000);
      annTab.once(TASK_EVENTS.notification, (e: TaskNotificationEvent) => {
        clearTimeout(timer);
        resolve(e);
      });
    });

    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id] });
    const event = await pushed;
    expect(event).toMatchObject({ kind: 'assigned', task: { _id: task._id }, read: false });
    const [stored] = await notificationsOf(ann);
    expect(event).toEqual(stored);
    // Positive controls instead of a waiting window: a push goes out before its request answers, so
    // the owner's and Bob's own notifications, caused afterwards, arrive after any stray one would.
    expect((await api.post(`/api/tasks/${task._id}/comments`, ann, { text: 'on it' })).statusCode).toBe(201);
    await eventually(() => (heard.owner?.length ?? 0) > 0);
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [ann.id, bob.id] });
    await eventually(() => (heard.bob?.length ?? 0) > 0);
    expect(heard.owner?.map((e) => e.kind)).toEqual(['comment']);
    expect(heard.bob?.map((e) => e.kind)).toEqual(['assigned']);
  });
});
