import { afterEach, describe, expect, it, vi } from 'vitest';
import { taskApi } from './tasks.queries.ts';

afterEach(() => vi.unstubAllGlobals());

describe('taskApi', () => {
  it('sends a card’s move and reorder with keepalive, so a reload right after a drop does not cancel them', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await taskApi.reorder('t1', 2);
    await taskApi.move('t1', 'l2', 0);
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([url, init]) => [url, init.method, init.keepalive, init.body])).toEqual([
      ['/api/tasks/t1/position', 'PUT', true, JSON.stringify({ position: 2 })],
      ['/api/tasks/t1/move', 'PUT', true, JSON.stringify({ newTaskListId: 'l2', position: 0 })],
    ]);
  });
});
