import { randomUUID } from 'node:crypto';
import {
  BOARD_MESSAGES,
  type Board,
  type BoardDetail,
  type TaskPreview,
  WORKSPACE_BOARDS_MAX,
} from '@cohort/shared/boards';
import { mentionMarkup } from '@cohort/shared/notifications';
import type { TaskDetail, TaskList, TaskNotification } from '@cohort/shared/tasks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { PNG, upload } from '../files/files.test-helpers.ts';
import { createChannel, createWorkspace } from '../workspaces/test-fixtures.ts';
import { client, uniqueTitle } from './tasks.test-helpers.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  admin = await createUser(t.app, { firstName: 'Ada', lastName: 'Admin' });
  editor = await createUser(t.app, { firstName: 'Ed', lastName: 'Editor' });
  viewer = await createUser(t.app, { firstName: 'Vi', lastName: 'Viewer' });
  outsider = await createUser(t.app, { firstName: 'Out', lastName: 'Sider' });
  ws = await createWorkspace(t, admin, {
    name: uniqueTitle('team'),
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
});
afterAll(() => t.close());

async function teamBoard(title = uniqueTitle('board')): Promise<Board> {
  const res = await api.post(`/api/workspaces/${ws.name}/boards`, admin, { title });
  expect(res.statusCode).toBe(201);
  return res.json() as Board;
}
async function listOn(board: { _id: string }, as = admin): Promise<TaskList> {
  const res = await api.post('/api/tasklists', as, { title: uniqueTitle(), boardId: board._id });
  expect(res.statusCode).toBe(201);
  return res.json() as TaskList;
}
async function taskOn(
  list: { _id: string },
  as = admin,
  body: Record<string, unknown> = {},
): Promise<TaskDetail> {
  const res = await api.post('/api/tasks', as, { title: uniqueTitle('task'), taskListId: list._id, ...body });
  expect(res.statusCode).toBe(201);
  return res.json() as TaskDetail;
}

describe('boards', () => {
  it('a new workspace has a Team board; GET /api/boards lists the personal board first, then by workspace', async () => {
    const res = await api.get('/api/boards', editor);
    expect(res.statusCode).toBe(200);
    const boards = res.json() as Board[];
    expect(boards[0]).toMatchObject({ workspace: null, role: 'owner' });
    const team = boards.find((b) => b.workspace?._id === ws._id && b.title === 'Team board');
    expect(team).toMatchObject({ role: 'editor', workspace: { name: ws.name } });
    // Called again: still one personal board.
    const again = (await api.get('/api/boards', editor)).json() as Board[];
    expect(again.filter((b) => b.workspace === null)).toHaveLength(1);
    expect((await api.get('/api/boards', outsider)).json()).toHaveLength(1);
  });

  it('creates, renames and deletes team boards (duplicate title 409, personal board kept)', async () => {
    const board = await teamBoard('Roadmap');
    expect(board).toMatchObject({ title: 'Roadmap', role: 'admin', workspace: { _id: ws._id } });
    const dup = await api.post(`/api/workspaces/${ws.name}/boards`, admin, { title: 'roadmap' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(BOARD_MESSAGES.titleTaken);
    expect((await api.post(`/api/workspaces/${ws.name}/boards`, admin, { title: '  ' })).statusCode).toBe(
      400,
    );
    const renamed = await api.patch(`/api/boards/${board._id}`, admin, { title: 'Roadmap 2' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().title).toBe('Roadmap 2');
    expect((await api.del(`/api/boards/${board._id}`, admin)).statusCode).toBe(204);
    expect((await api.get(`/api/boards/${board._id}`, admin)).statusCode).toBe(404);
    const personal = ((await api.get('/api/boards', admin)).json() as Board[])[0];
    const kept = await api.del(`/api/boards/${personal?._id}`, admin);
    expect(kept.statusCode).toBe(409);
    expect(kept.json().message).toBe(BOARD_MESSAGES.personalBoardKept);
  });

  it(`caps a workspace at ${WORKSPACE_BOARDS_MAX} boards`, async () => {
    const owner = await createUser(t.app);
    const small = await createWorkspace(t, owner, { name: uniqueTitle('cap') });
    for (let i = 1; i < WORKSPACE_BOARDS_MAX; i++) {
      expect(
        (await api.post(`/api/workspaces/${small.name}/boards`, owner, { title: `b${i}` })).statusCode,
      ).toBe(201);
    }
    const over = await api.post(`/api/workspaces/${small.name}/boards`, owner, { title: 'one too many' });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(BOARD_MESSAGES.tooManyBoards);
  });

  it('GET /api/boards/:id has rev, lists with their tasks in order, and members; tasks carry boardId', async () => {
    const board = await teamBoard();
    const list = await listOn(board);
    const a = await taskOn(list);
    const b = await taskOn(list, editor);
    expect(a.boardId).toBe(board._id);
    expect(a.attachments).toEqual([]);
    expect(a.source).toBeNull();
    const detail = (await api.get(`/api/boards/${board._id}`, viewer)).json() as BoardDetail;
    expect(detail.rev).toBe(3);
    expect(detail.role).toBe('viewer');
    expect(detail.lists.map((l) => [l._id, l.boardId, l.tasks.map((x) => x._id)])).toEqual([
      [list._id, board._id, [a._id, b._id]],
    ]);
    expect(detail.members.map((m) => [m.email, m.role]).sort()).toEqual(
      [
        [admin.email, 'admin'],
        [editor.email, 'editor'],
        [viewer.email, 'viewer'],
      ].sort(),
    );
    // GET /api/tasklists?boardId= is the board's lists; without it, the personal board's.
    expect(
      ((await api.get(`/api/tasklists?boardId=${board._id}`, viewer)).json() as TaskList[]).map((l) => l._id),
    ).toEqual([list._id]);
    expect((await api.get(`/api/tasklists?boardId=${board._id}`, outsider)).statusCode).toBe(404);
    expect((await api.get('/api/tasklists', admin)).json().some((l: TaskList) => l._id === list._id)).toBe(
      false,
    );
  });

  it('shows the board activity, newest first, a page at a time', async () => {
    const board = await teamBoard();
    const list = await listOn(board);
    const task = await taskOn(list);
    await api.put(`/api/tasks/${task._id}`, editor, { title: 'Renamed' });
    const res = await api.get(`/api/boards/${board._id}/activity`, viewer);
    expect(res.statusCode).toBe(200);
    const items = res.json() as Array<{ action: string; task: { _id: string }; user: { email: string } }>;
    expect(items.map((i) => [i.action, i.user.email])).toEqual([
      ['updated', editor.email],
      ['created', admin.email],
    ]);
    expect((await api.get(`/api/boards/${board._id}/activity`, outsider)).statusCode).toBe(404);
    const older = await api.get(
      `/api/boards/${board._id}/activity?before=${encodeURIComponent('2000-01-01T00:00:00Z')}`,
      admin,
    );
    expect(older.json()).toEqual([]);
  });
});

describe('authorization matrix: roles × board actions', () => {
  type Actor = 'admin' | 'editor' | 'viewer' | 'outsider';
  const actors: Record<Actor, () => TestUser> = {
    admin: () => admin,
    editor: () => editor,
    viewer: () => viewer,
    outsider: () => outsider,
  };
  interface Row {
    action: string;
    expected: Record<Actor, number>;
    run: (as: TestUser) => Promise<{ statusCode: number; body: string }>;
  }
  const rows: Row[] = [
    {
      action: 'read board',
      expected: { admin: 200, editor: 200, viewer: 200, outsider: 404 },
      run: async (as) => api.get(`/api/boards/${(await scene()).board._id}`, as),
    },
    {
      action: 'create list',
      expected: { admin: 201, editor: 201, viewer: 403, outsider: 404 },
      run: async (as) =>
        api.post('/api/tasklists', as, { title: uniqueTitle(), boardId: (await scene()).board._id }),
    },
    {
      action: 'rename list',
      expected: { admin: 200, editor: 200, viewer: 403, outsider: 404 },
      run: async (as) =>
        api.patch(`/api/tasklists/${(await scene()).list._id}`, as, { title: uniqueTitle() }),
    },
    {
      action: 'create task',
      expected: { admin: 201, editor: 201, viewer: 403, outsider: 404 },
      run: async (as) => api.post('/api/tasks', as, { title: 'x', taskListId: (await scene()).list._id }),
    },
    {
      action: 'read task',
      expected: { admin: 200, editor: 200, viewer: 200, outsider: 404 },
      run: async (as) => api.get(`/api/task/${(await scene()).task._id}`, as),
    },
    {
      action: 'edit task',
      expected: { admin: 200, editor: 200, viewer: 403, outsider: 404 },
      run: async (as) => api.put(`/api/tasks/${(await scene()).task._id}`, as, { title: uniqueTitle() }),
    },
    {
      action: 'move task',
      expected: { admin: 200, editor: 200, viewer: 403, outsider: 404 },
      run: async (as) => {
        const s = await scene();
        const fresh = await taskOn(s.list);
        return api.put(`/api/tasks/${fresh._id}/move`, as, { newTaskListId: s.other._id });
      },
    },
    {
      action: 'comment',
      expected: { admin: 201, editor: 201, viewer: 201, outsider: 404 },
      run: async (as) => api.post(`/api/tasks/${(await scene()).task._id}/comments`, as, { text: 'hello' }),
    },
    {
      action: 'assign',
      expected: { admin: 200, editor: 200, viewer: 403, outsider: 404 },
      run: async (as) =>
        api.put(`/api/tasks/${(await scene()).task._id}/assignees`, as, { userIds: [editor.id] }),
    },
    {
      action: 'attach (upload for the card)',
      expected: { admin: 201, editor: 201, viewer: 403, outsider: 404 },
      run: async (as) =>
        upload(t, as, { taskId: (await scene()).task._id }, [{ name: 'file', data: PNG, filename: 'a.png' }]),
    },
    {
      action: 'create board',
      expected: { admin: 201, editor: 403, viewer: 403, outsider: 404 },
      run: async (as) => api.post(`/api/workspaces/${ws.name}/boards`, as, { title: uniqueTitle() }),
    },
    {
      action: 'rename board',
      expected: { admin: 200, editor: 403, viewer: 403, outsider: 404 },
      run: async (as) => api.patch(`/api/boards/${(await scene()).board._id}`, as, { title: uniqueTitle() }),
    },
    {
      action: 'delete board',
      expected: { admin: 204, editor: 403, viewer: 403, outsider: 404 },
      run: async (as) => api.del(`/api/boards/${(await teamBoard())._id}`, as),
    },
  ];

  let built: Promise<{ board: Board; list: TaskList; other: TaskList; task: TaskDetail }> | undefined;
  const scene = () => {
    built ??= (async () => {
      const board = await teamBoard();
      const list = await listOn(board);
      const other = await listOn(board);
      return { board, list, other, task: await taskOn(list) };
    })();
    return built;
  };

  for (const row of rows) {
    it(row.action, async () => {
      const got: Record<string, number> = {};
      for (const actor of Object.keys(actors) as Actor[]) {
        got[actor] = (await row.run(actors[actor]())).statusCode;
      }
      expect(got).toEqual(row.expected);
    });
  }

  it('the owner of a personal board may do everything there; nobody else sees it', async () => {
    const owner = await createUser(t.app);
    const boards = (await api.get('/api/boards', owner)).json() as Board[];
    const personal = boards[0] as Board;
    const list = await listOn(personal, owner);
    const other = await listOn(personal, owner);
    const task = await taskOn(list, owner);
    expect(
      (await api.put(`/api/tasks/${task._id}/move`, owner, { newTaskListId: other._id })).statusCode,
    ).toBe(200);
    expect((await api.patch(`/api/boards/${personal._id}`, owner, { title: 'Mine' })).statusCode).toBe(200);
    for (const as of [admin, editor, outsider]) {
      expect((await api.get(`/api/boards/${personal._id}`, as)).statusCode).toBe(404);
      expect((await api.get(`/api/task/${task._id}`, as)).statusCode).toBe(404);
    }
  });

  it('assigns only workspace members on a team board, and moves only within the board', async () => {
    const s = await scene();
    const bad = await api.put(`/api/tasks/${s.task._id}/assignees`, admin, { userIds: [outsider.id] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(BOARD_MESSAGES.assigneeNotMember);
    const elsewhere = await listOn(await teamBoard());
    const move = await api.put(`/api/tasks/${s.task._id}/move`, admin, { newTaskListId: elsewhere._id });
    expect(move.statusCode).toBe(400);
    expect(move.json().message).toBe(BOARD_MESSAGES.otherBoard);
  });

  it('a removed member loses the boards (404) and their assignments there', async () => {
    const leaver = await createUser(t.app);
    const team = await createWorkspace(t, admin, {
      name: uniqueTitle('gone'),
      members: [{ email: leaver.email, role: 'editor' }],
    });
    const board = ((await api.get('/api/boards', leaver)).json() as Board[]).find(
      (b) => b.workspace?._id === team._id,
    ) as Board;
    const list = await listOn(board, leaver);
    const task = await taskOn(list, admin);
    expect(
      (await api.put(`/api/tasks/${task._id}/assignees`, admin, { userIds: [leaver.id] })).statusCode,
    ).toBe(200);
    expect((await api.del(`/api/workspaces/${team._id}/members/${leaver.id}`, admin)).statusCode).toBe(204);
    expect((await api.get(`/api/boards/${board._id}`, leaver)).statusCode).toBe(404);
    expect((await api.get(`/api/task/${task._id}`, leaver)).statusCode).toBe(404);
    await expect
      .poll(
        async () => ((await api.get(`/api/task/${task._id}`, admin)).json() as TaskDetail).assignedTo.length,
      )
      .toBe(0);
  });
});

describe('mentions, previews and source messages', () => {
  const notes = async (as: TestUser) =>
    (await api.get('/api/tasks/notifications', as)).json() as TaskNotification[];

  it('notifies the mentioned member (comment and newly in a description), never the actor nor outsiders', async () => {
    const board = await teamBoard();
    const task = await taskOn(await listOn(board));
    const text = `ping ${mentionMarkup('Vi', viewer.email)} ${mentionMarkup('Out', outsider.email)} ${mentionMarkup('Ed', editor.email)}`;
    expect((await api.post(`/api/tasks/${task._id}/comments`, editor, { text })).statusCode).toBe(201);
    const mentionsOf = async (as: TestUser) =>
      (await notes(as)).filter((n) => n.kind === 'mention' && n.task._id === task._id);
    expect(await mentionsOf(viewer)).toHaveLength(1);
    expect(await mentionsOf(editor)).toHaveLength(0);
    expect(await mentionsOf(outsider)).toHaveLength(0);
    // The creator (admin) hears of the comment, not of a mention.
    expect((await notes(admin)).filter((n) => n.task._id === task._id).map((n) => n.kind)).toEqual([
      'comment',
    ]);

    const description = `for ${mentionMarkup('Ed', editor.email)}`;
    expect((await api.put(`/api/tasks/${task._id}`, admin, { description })).statusCode).toBe(200);
    expect(await mentionsOf(editor)).toHaveLength(1);
    // Saved again with one more mention: only the newly mentioned person is told.
    await api.put(`/api/tasks/${task._id}`, admin, {
      description: `${description} and ${mentionMarkup('Vi', viewer.email)}`,
    });
    expect(await mentionsOf(editor)).toHaveLength(1);
    expect(await mentionsOf(viewer)).toHaveLength(2);
  });

  it('previews a task for those who can see it, 404 for outsiders', async () => {
    const board = await teamBoard();
    const list = await listOn(board);
    const task = await taskOn(list);
    const res = await api.get(`/api/tasks/preview/${task._id}`, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json() as TaskPreview).toMatchObject({
      _id: task._id,
      title: task.title,
      board: { _id: board._id, title: board.title },
      listTitle: list.title,
      archived: false,
    });
    expect((await api.get(`/api/tasks/preview/${task._id}`, outsider)).statusCode).toBe(404);
    expect((await api.get(`/api/tasks/preview/${randomUUID()}`, viewer)).statusCode).toBe(404);
  });

  it('links a task to a chat message the creator can read; an unreadable one is 404', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const sent = await api.post(`/api/workspaces/${ws.name}/channels/${channel._id}/messages`, admin, {
      content: 'make a task of this',
      clientId: randomUUID(),
    });
    expect(sent.statusCode).toBeLessThan(300);
    const messageId = sent.json()._id as string;
    const list = await listOn(await teamBoard());
    const source = { workspaceName: ws.name, channelId: channel._id, messageId };
    const task = await taskOn(list, editor, { source });
    expect(task.source).toEqual(source);
    const other = await createUser(t.app);
    const own = ((await api.get('/api/boards', other)).json() as Board[])[0] as Board;
    const ownList = await listOn(own, other);
    const refused = await api.post('/api/tasks', other, { title: 'x', taskListId: ownList._id, source });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(BOARD_MESSAGES.sourceMessageNotFound);
    const missing = await api.post('/api/tasks', editor, {
      title: 'x',
      taskListId: list._id,
      source: { ...source, messageId: randomUUID() },
    });
    expect(missing.statusCode).toBe(404);
  });
});
