import type { AddressInfo } from 'node:net';
import { BOARD_EVENTS, type Board, type BoardChangedEvent, type BoardDetail } from '@cohort/shared/boards';
import { TASKS_NAMESPACE, type TaskDetail, type TaskList } from '@cohort/shared/tasks';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';
import { client, uniqueTitle } from './tasks.test-helpers.ts';

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let alice: TestUser;
let bob: TestUser;
let ws: { _id: string; name: string };
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${TASKS_NAMESPACE}`;
  api = client(t);
  alice = await createUser(t.app);
  bob = await createUser(t.app);
  ws = await createWorkspace(t, alice, {
    name: uniqueTitle('live'),
    members: [{ email: bob.email, role: 'editor' }],
  });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(() => t.close());

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
const watch = (socket: Socket, payload: unknown) =>
  socket.timeout(3000).emitWithAck(BOARD_EVENTS.watch, payload) as Promise<{ ok: boolean; error?: string }>;

function collect(socket: Socket) {
  const events: BoardChangedEvent[] = [];
  socket.on(BOARD_EVENTS.changed, (e: BoardChangedEvent) => events.push(e));
  return events;
}

async function board(): Promise<{ board: Board; lists: TaskList[]; task: TaskDetail }> {
  const created = (
    await api.post(`/api/workspaces/${ws.name}/boards`, alice, { title: uniqueTitle() })
  ).json() as Board;
  const lists: TaskList[] = [];
  for (let i = 0; i < 2; i++) {
    lists.push(
      (await api.post('/api/tasklists', alice, { title: uniqueTitle(), boardId: created._id })).json(),
    );
  }
  const task = (await api.post('/api/tasks', alice, { title: 'card', taskListId: lists[0]?._id })).json();
  return { board: created, lists, task };
}

describe('boardChanged on /tasks', () => {
  it('refuses bad payloads and boards the caller cannot read, with an error ack', async () => {
    const { board: b } = await board();
    const stranger = await createUser(t.app);
    const socket = await tab(stranger);
    expect(await watch(socket, { boardId: b._id })).toMatchObject({ ok: false, error: 'Board not found' });
    expect(await watch(socket, { boardId: 42 })).toMatchObject({ ok: false });
    expect(await watch(socket, 'nonsense')).toMatchObject({ ok: false });
    expect(socket.connected).toBe(true);
  });

  it("delivers A's change to B with rev + 1; a reconnecting client refetches the current rev", async () => {
    const { board: b, lists, task } = await board();
    const before = ((await api.get(`/api/boards/${b._id}`, bob)).json() as BoardDetail).rev;
    const bSocket = await tab(bob);
    expect(await watch(bSocket, { boardId: b._id })).toMatchObject({ ok: true });
    const seen = collect(bSocket);
    const moved = await api.put(`/api/tasks/${task._id}/move`, alice, { newTaskListId: lists[1]?._id });
    expect(moved.statusCode).toBe(200);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({
      boardId: b._id,
      rev: before + 1,
      taskId: task._id,
      task: { _id: task._id, taskListId: lists[1]?._id, boardId: b._id },
      order: expect.arrayContaining([
        { taskListId: lists[0]?._id, taskIds: [] },
        { taskListId: lists[1]?._id, taskIds: [task._id] },
      ]),
    });
    // While "offline", two more changes; the refetch has them and their rev.
    bSocket.close();
    await api.put(`/api/tasks/${task._id}`, alice, { title: 'renamed' });
    await api.post(`/api/tasks/${task._id}/comments`, alice, { text: 'hi' });
    const detail = (await api.get(`/api/boards/${b._id}`, bob)).json() as BoardDetail;
    expect(detail.rev).toBe(before + 3);
    expect(detail.lists[1]?.tasks[0]?.title).toBe('renamed');
  });

  it('two concurrent moves of one card end in one order, the same for both clients', async () => {
    const { board: b, lists, task } = await board();
    const third = (
      await api.post('/api/tasklists', alice, { title: uniqueTitle(), boardId: b._id })
    ).json() as TaskList;
    const [aSocket, bSocket] = [await tab(alice), await tab(bob)];
    await watch(aSocket, { boardId: b._id });
    await watch(bSocket, { boardId: b._id });
    const [aSeen, bSeen] = [collect(aSocket), collect(bSocket)];
    const results = await Promise.all([
      api.put(`/api/tasks/${task._id}/move`, alice, { newTaskListId: lists[1]?._id }),
      api.put(`/api/tasks/${task._id}/move`, bob, { newTaskListId: third._id }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    await expect.poll(() => [aSeen.length, bSeen.length]).toEqual([2, 2]);
    const last = (seen: BoardChangedEvent[]) => [...seen].sort((x, y) => x.rev - y.rev).at(-1);
    expect(last(aSeen)).toEqual(last(bSeen));
    expect(new Set(aSeen.map((e) => e.rev)).size).toBe(2);
    // The last committed order is the database's.
    const detail = (await api.get(`/api/boards/${b._id}`, alice)).json() as BoardDetail;
    const where = detail.lists.filter((l) => l.tasks.some((x) => x._id === task._id)).map((l) => l._id);
    expect(where).toHaveLength(1);
    expect(last(aSeen)?.task?.taskListId).toBe(where[0]);
  });

  it('a removed member stops receiving the board (their sockets leave its room)', async () => {
    const carol = await createUser(t.app);
    const team = await createWorkspace(t, alice, {
      name: uniqueTitle('kick'),
      members: [{ email: carol.email, role: 'viewer' }],
    });
    const teamBoard = ((await api.get('/api/boards', carol)).json() as Board[]).find(
      (x) => x.workspace?._id === team._id,
    ) as Board;
    const list = (
      await api.post('/api/tasklists', alice, { title: uniqueTitle(), boardId: teamBoard._id })
    ).json() as TaskList;
    const [cSocket, aSocket] = [await tab(carol), await tab(alice)];
    expect(await watch(cSocket, { boardId: teamBoard._id })).toMatchObject({ ok: true });
    await watch(aSocket, { boardId: teamBoard._id });
    const [cSeen, aSeen] = [collect(cSocket), collect(aSocket)];
    expect((await api.del(`/api/workspaces/${team._id}/members/${carol.id}`, alice)).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 100));
    await api.post('/api/tasks', alice, { title: 'secret', taskListId: list._id });
    await expect.poll(() => aSeen.length).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(cSeen).toEqual([]);
    expect(await watch(cSocket, { boardId: teamBoard._id })).toMatchObject({ ok: false });
  });

  it('tells watchers that a board was deleted', async () => {
    const { board: b } = await board();
    const bSocket = await tab(bob);
    await watch(bSocket, { boardId: b._id });
    const seen = collect(bSocket);
    expect((await api.del(`/api/boards/${b._id}`, alice)).statusCode).toBe(204);
    await expect.poll(() => seen.at(-1)?.deleted).toBe(true);
  });
});
