import type { AddressInfo } from 'node:net';
import {
  TASK_EVENTS,
  TASKS_NAMESPACE,
  type TaskChangedEvent,
  type TaskListChangedEvent,
} from '@cohort/shared/tasks';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { client, createList, createTask, shareWorkspace } from './tasks.test-helpers.ts';

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${TASKS_NAMESPACE}`;
  api = client(t);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(() => t.close());

async function tab(user: TestUser | { token: string }) {
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

function next<T>(socket: Socket, event: string, match: (payload: T) => boolean = () => true) {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 3 s`)), 3000);
    const handler = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, handler);
      resolve(payload);
    };
    socket.on(event, handler);
  });
}

describe('/tasks namespace', () => {
  it('refuses a connection without a valid session', async () => {
    await expect(tab({ token: 'forged' })).rejects.toThrow('unauthorized');
  });

  it("pushes a move to the owner's other tab, with the presented task and both lists", async () => {
    const owner = await createUser(t.app);
    const from = await createList(t, owner);
    const to = await createList(t, owner);
    const task = await createTask(t, owner, from);
    const [, second] = [await tab(owner), await tab(owner)];

    const changed = next<TaskChangedEvent>(second, TASK_EVENTS.taskChanged, (e) => e.taskId === task._id);
    const target = next<TaskListChangedEvent>(
      second,
      TASK_EVENTS.taskListChanged,
      (e) => e.taskListId === to._id,
    );
    const res = await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: to._id });
    expect(res.statusCode).toBe(200);
    expect(await changed).toEqual({ taskId: task._id, taskListId: to._id, task: res.json() });
    expect((await target).list?.tasks.map((x) => x._id)).toEqual([task._id]);
  });

  it('pushes task changes to assignees, tells a removed assignee, and keeps strangers out', async () => {
    const owner = await createUser(t.app);
    const colleague = await createUser(t.app);
    const stranger = await createUser(t.app);
    await shareWorkspace(t, owner, [colleague]);
    const task = await createTask(t, owner, await createList(t, owner));
    const colleagueTab = await tab(colleague);
    const strangerTab = await tab(stranger);
    let strangerHeard = 0;
    strangerTab.onAny(() => strangerHeard++);

    const assigned = next<TaskChangedEvent>(colleagueTab, TASK_EVENTS.taskChanged);
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [colleague.id] });
    expect((await assigned).task?.assignedTo.map((a) => a._id)).toEqual([colleague.id]);

    const commented = next<TaskChangedEvent>(colleagueTab, TASK_EVENTS.taskChanged);
    await api.post(`/api/tasks/${task._id}/comments`, owner, { text: 'ping' });
    expect((await commented).task?.comments.map((c) => c.text)).toEqual(['ping']);

    const removed = next<TaskChangedEvent>(colleagueTab, TASK_EVENTS.taskChanged);
    await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds: [] });
    expect(await removed).toEqual({ taskId: task._id, taskListId: task.taskListId, task: null });
    expect(strangerHeard).toBe(0);
  });

  it('announces a deleted list to its owner', async () => {
    const owner = await createUser(t.app);
    const list = await createList(t, owner);
    const socket = await tab(owner);
    const deleted = next<TaskListChangedEvent>(socket, TASK_EVENTS.taskListChanged);
    expect((await api.del(`/api/tasklists/${list._id}`, owner)).statusCode).toBe(204);
    expect(await deleted).toEqual({ taskListId: list._id, list: null });
  });
});
