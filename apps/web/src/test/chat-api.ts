import { vi } from 'vitest';

type Reply = { status?: number; json?: unknown };
/** A route's answer, or a promise of it (a test can hold an answer back to see the waiting state). */
export type ApiRoute = (url: URL, body: unknown) => Reply | undefined | Promise<Reply | undefined>;

/**
 * A fetch stub for the chat screens, whose history calls differ only in their query string
 * (`after=`, `before=`, `limit=`): each route sees the whole URL. Unknown calls fail loudly.
 */
export function stubApi(routes: Record<string, ApiRoute>) {
  const calls: Array<{ method: string; path: string; query: Record<string, string> }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const url = new URL(String(input), 'http://localhost');
    calls.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const route = routes[`${method} ${url.pathname}`];
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const reply = await route?.(url, body);
    if (!reply) throw new Error(`Unexpected request ${method} ${url.pathname}${url.search}`);
    const { status = 200, json = {} } = reply;
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/** Messages filtered like the server's history endpoints: by seq, oldest first, newest `limit` by default. */
export function historyReply<T extends { seq: number; rev?: number }>(all: T[], url: URL): Reply {
  const changedAfter = url.searchParams.get('changedAfter');
  if (changedAfter !== null) {
    const changed = all.filter((m) => (m.rev ?? m.seq) > Number(changedAfter));
    return { json: changed.sort((a, b) => (a.rev ?? a.seq) - (b.rev ?? b.seq)) };
  }
  const after = url.searchParams.get('after');
  const before = url.searchParams.get('before');
  const limit = Number(url.searchParams.get('limit') ?? 50);
  let list = all;
  if (after !== null) list = list.filter((m) => m.seq > Number(after));
  if (before !== null) list = list.filter((m) => m.seq < Number(before));
  return { json: after !== null ? list.slice(0, limit) : list.slice(-limit) };
}
