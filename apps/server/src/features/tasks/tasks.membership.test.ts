import type { AddressInfo } from 'node:net';
import type { TaskChangedEvent, TaskDetail } from '@cohort/shared/tasks';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { addMember, createWorkspace } from '../workspaces/test-fixtures.ts';
import { client, createList, createTask, uniqueTitle } from './tasks.test-helpers.ts';

/**
 * An assignee is a colleague of the task's owner. Removed from the last workspace they shared (or
 * that workspace deleted, or they left it), they lose the task at once: no reading, no commenting, gone
 * from their assignments and told by the /tasks push; back in the workspace, they do not get it back.
 */

let t: TestApp;
let api: ReturnType<typeof client>;
let owner: TestUser;
let leaver: TestUser;
let stayer: TestUser;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  api = client(t);
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  [owner, leaver, stayer] = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app)]);
});
afterAll(() => t.close());

/** A workspace of the owner that `members` joined (invited, and accepted). */
async function workspaceOf(members: TestUser[]) {
  const ws = await createWorkspace(t, owner, {
    name: uniqueTitle('ws'),
    description: 'Team',
    members: members.map((m) => ({ email: m.email, role: 'editor' })),
  });
  return ws.name;
}

async function assignedTask(userIds: string[]) {
  const task = await createTask(t, owner, await createList(t, owner));
  const res = await api.put(`/api/tasks/${task._id}/assignees`, owner, { userIds });
  expect(res.statusCode, res.body).toBe(200);
  return task;
}

function tasksSocket(token: string): Promise<Socket> {
  const socket = connect(`${url}/tasks`, { transports: ['websocket'], reconnection: false, auth: { token } });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const assignedIds = async (as: TestUser) =>
  ((await api.get('/api/tasks/assigned', as)).json() as TaskDetail[]).map((x) => x._id);

describe('assignments end with the last shared workspace', () => {
  it('a removed member loses the task (read, comment, listing), is told, and does not get it back', async () => {
    const ws = await workspaceOf([leaver, stayer]);
    const task = await assignedTask([leaver.id, stayer.id]);
    expect(await assignedIds(leaver)).toContain(task._id);
    const socket = await tasksSocket(leaver.token);
    const pushed: TaskChangedEvent[] = [];
    socket.on('taskChanged', (e: TaskChangedEvent) => pushed.push(e));

    const removed = await api.del(`/api/workspaces/${ws}/members/${leaver.id}`, owner);
    expect(removed.statusCode).toBe(204);

    await eventually(() => pushed.some((e) => e.taskId === task._id && e.task === null));
    socket.close();
    expect((await api.get(`/api/task/${task._id}`, leaver)).statusCode).toBe(404);
    expect(
      (await api.post(`/api/tasks/${task._id}/comments`, leaver, { text: 'still here?' })).statusCode,
    ).toBe(404);
    expect(await assignedIds(leaver)).not.toContain(task._id);
    // The colleague who stays keeps it, and the owner sees who is left.
    expect((await api.get(`/api/task/${task._id}`, stayer)).statusCode).toBe(200);
    const detail = (await api.get(`/api/task/${task._id}`, owner)).json() as TaskDetail;
    expect(detail.assignedTo.map((a) => a._id)).toEqual([stayer.id]);

    // Invited again and joined: the assignment does not come back.
    await addMember(t, owner, ws, leaver, 'editor');
    expect((await api.get(`/api/task/${task._id}`, leaver)).statusCode).toBe(404);
  });

  it('ends them when the assignee leaves the workspace', async () => {
    const other = await createUser(t.app);
    const ws = await workspaceOf([other]);
    const task = await assignedTask([other.id]);
    expect((await api.get(`/api/task/${task._id}`, other)).statusCode).toBe(200);
    expect((await api.post(`/api/workspaces/${ws}/leave`, other, {})).statusCode).toBe(204);
    await eventually(async () => (await api.get(`/api/task/${task._id}`, other)).statusCode === 404);
  });

  it('keeps the assignment while another workspace is still shared', async () => {
    const ws = await workspaceOf([leaver]);
    await workspaceOf([leaver]);
    const task = await assignedTask([leaver.id]);
    expect((await api.del(`/api/workspaces/${ws}/members/${leaver.id}`, owner)).statusCode).toBe(204);
    // Positive control instead of a waiting window: a removal that does strand someone else's
    // assignment runs the same clean-up, one statement over every assignment. Once it has visibly
    // acted, it would have taken the leaver's too, were that one wrongly counted as stranded.
    const other = await createUser(t.app);
    const otherWs = await workspaceOf([other]);
    const control = await assignedTask([other.id]);
    expect((await api.del(`/api/workspaces/${otherWs}/members/${other.id}`, owner)).statusCode).toBe(204);
    await eventually(async () => (await api.get(`/api/task/${control._id}`, other)).statusCode === 404);
    expect((await api.get(`/api/task/${task._id}`, leaver)).statusCode).toBe(200);
  });

  it('ends them when the shared workspace is deleted', async () => {
    const other = await createUser(t.app);
    const ws = await workspaceOf([other]);
    const task = await assignedTask([other.id]);
    expect((await api.get(`/api/task/${task._id}`, other)).statusCode).toBe(200);
    expect((await api.del(`/api/workspaces/${ws}`, owner)).statusCode).toBe(204);
    // The clean-up runs after the deletion commits: the next requests see it.
    await eventually(async () => (await api.get(`/api/task/${task._id}`, other)).statusCode === 404);
  });
});
