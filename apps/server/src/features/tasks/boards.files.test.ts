import type { Board, BoardDetail } from '@cohort/shared/boards';
import type { TaskDetail, TaskList } from '@cohort/shared/tasks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { files } from '../../db/schema.ts';
import { sweepUnattachedUploads, UNATTACHED_TTL_MS } from '../files/files.sweeper.ts';
import { PNG, upload } from '../files/files.test-helpers.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';
import { client, uniqueTitle } from './tasks.test-helpers.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  admin = await createUser(t.app);
  viewer = await createUser(t.app);
  outsider = await createUser(t.app);
  ws = await createWorkspace(t, admin, {
    name: uniqueTitle('files'),
    members: [{ email: viewer.email, role: 'viewer' }],
  });
});
afterAll(() => t.close());

async function card(as = admin) {
  const board = (
    await api.post(`/api/workspaces/${ws.name}/boards`, as, { title: uniqueTitle() })
  ).json() as Board;
  const list = (
    await api.post('/api/tasklists', as, { title: uniqueTitle(), boardId: board._id })
  ).json() as TaskList;
  const task = (
    await api.post('/api/tasks', as, { title: 'card', taskListId: list._id })
  ).json() as TaskDetail;
  return { board, list, task };
}
const png = [{ name: 'file', data: PNG, filename: 'shot.png', type: 'image/png' }];

describe('card attachments through the file service', () => {
  it('uploads for a task, attaches, and serves it to board readers only; counted in the workspace quota', async () => {
    const { board, task } = await card();
    const before = (await api.get(`/api/workspaces/${ws.name}/storage`, admin)).json() as { bytes: number };
    const up = await upload(t, admin, { taskId: task._id }, png);
    expect(up.statusCode).toBe(201);
    const fileId = up.json()._id as string;
    // Not attached yet: only the uploader.
    expect((await api.get(`/api/files/${fileId}`, viewer)).statusCode).toBe(404);
    const attached = await api.post(`/api/tasks/${task._id}/attachments`, admin, { fileId });
    expect(attached.statusCode).toBe(201);
    expect((attached.json() as TaskDetail).attachments).toEqual([
      expect.objectContaining({
        _id: fileId,
        name: 'shot.png',
        type: 'image/png',
        url: `/api/files/${fileId}`,
      }),
    ]);
    const got = await api.get(`/api/files/${fileId}`, viewer);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect((await api.get(`/api/files/${fileId}`, outsider)).statusCode).toBe(404);
    const detail = (await api.get(`/api/boards/${board._id}`, viewer)).json() as BoardDetail;
    expect(detail.lists[0]?.tasks[0]?.attachments.map((a) => a._id)).toEqual([fileId]);
    const after = (await api.get(`/api/workspaces/${ws.name}/storage`, admin)).json() as { bytes: number };
    expect(after.bytes).toBe(before.bytes + PNG.length);
    // Twice, or by someone else: not an upload to attach.
    expect((await api.post(`/api/tasks/${task._id}/attachments`, admin, { fileId })).statusCode).toBe(404);
    // Viewers may not attach; outsiders do not see the task.
    expect((await api.post(`/api/tasks/${task._id}/attachments`, viewer, { fileId })).statusCode).toBe(403);
    expect((await upload(t, outsider, { taskId: task._id }, png)).statusCode).toBe(404);
    // Taken off: the file is gone.
    const removed = await api.del(`/api/tasks/${task._id}/attachments/${fileId}`, admin);
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as TaskDetail).attachments).toEqual([]);
    expect((await api.get(`/api/files/${fileId}`, admin)).statusCode).toBe(404);
  });

  it('keeps attached card files from the sweeper, and sweeps them once their task is gone', async () => {
    const { list, task } = await card();
    const fileId = (await upload(t, admin, { taskId: task._id }, png)).json()._id as string;
    expect((await api.post(`/api/tasks/${task._id}/attachments`, admin, { fileId })).statusCode).toBe(201);
    // Older than any abandoned upload (the clock is left alone: sessions would expire with it).
    const old = new Date(Date.now() - UNATTACHED_TTL_MS - 60_000);
    await t.ctx.db.update(files).set({ createdAt: old }).where(eq(files.id, fileId));
    await sweepUnattachedUploads(t.ctx);
    expect((await api.get(`/api/files/${fileId}`, admin)).statusCode).toBe(200);
    expect((await api.del(`/api/tasklists/${list._id}?force=true`, admin)).statusCode).toBe(204);
    expect(await sweepUnattachedUploads(t.ctx)).toBeGreaterThan(0);
    expect((await api.get(`/api/files/${fileId}`, admin)).statusCode).toBe(404);
  });

  it("a personal board's files count like direct-message files (the uploader's)", async () => {
    const owner = await createUser(t.app);
    const personal = ((await api.get('/api/boards', owner)).json() as Board[])[0] as Board;
    const list = (
      await api.post('/api/tasklists', owner, { title: uniqueTitle(), boardId: personal._id })
    ).json() as TaskList;
    const task = (
      await api.post('/api/tasks', owner, { title: 'mine', taskListId: list._id })
    ).json() as TaskDetail;
    const up = await upload(t, owner, { taskId: task._id }, png);
    expect(up.statusCode).toBe(201);
    const { storedBytes } = await import('../files/files.sweeper.ts');
    expect(await storedBytes(t.ctx.db, { uploaderId: owner.id })).toBe(PNG.length);
  });
});
