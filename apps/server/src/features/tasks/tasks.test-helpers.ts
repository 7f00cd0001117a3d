import { randomUUID } from 'node:crypto';
import type { TaskDetail, TaskList } from '@cohort/shared/tasks';
import type { TestUser } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';

/** Test helpers shared by this feature's test files (not a test file itself). */

export const uniqueTitle = (prefix = 'list') => `${prefix}-${randomUUID().slice(0, 8)}`;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function client(t: TestApp) {
  const call = (method: Method, url: string, as?: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: as?.auth ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    call,
    get: (url: string, as?: TestUser) => call('GET', url, as),
    post: (url: string, as: TestUser | undefined, payload?: unknown) => call('POST', url, as, payload ?? {}),
    put: (url: string, as: TestUser | undefined, payload: unknown) => call('PUT', url, as, payload),
    patch: (url: string, as: TestUser | undefined, payload: unknown) => call('PATCH', url, as, payload),
    del: (url: string, as?: TestUser) => call('DELETE', url, as),
  };
}

export async function createList(t: TestApp, as: TestUser, title = uniqueTitle()) {
  const res = await client(t).post('/api/tasklists', as, { title });
  if (res.statusCode !== 201) throw new Error(`list creation failed: ${res.statusCode} ${res.body}`);
  return res.json() as TaskList;
}

export async function createTask(
  t: TestApp,
  as: TestUser,
  list: { _id: string },
  body: Record<string, unknown> = {},
) {
  const res = await client(t).post('/api/tasks', as, {
    title: uniqueTitle('task'),
    taskListId: list._id,
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`task creation failed: ${res.statusCode} ${res.body}`);
  return res.json() as TaskDetail;
}

/**
 * A workspace holding `owner` and `members` (invited, and accepted), so that the owner may assign
 * tasks to them.
 */
export async function shareWorkspace(t: TestApp, owner: TestUser, members: TestUser[]) {
  await createWorkspace(t, owner, {
    name: uniqueTitle('ws'),
    description: 'Team',
    members: members.map((m) => ({ email: m.email })),
  });
}
