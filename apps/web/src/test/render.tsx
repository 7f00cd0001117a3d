import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { Toaster } from '../lib/toaster.tsx';

/** Renders routes in a memory router with a fresh query cache and the toast region, like the app. */
export function renderRoutes(routes: RouteObject[], initialEntry: string) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const utils = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...utils, router, client };
}

export function renderAt(path: string, element: ReactNode) {
  return renderRoutes([{ path: path.split('?')[0], element }], path);
}

type Handler = (body: unknown) => { status?: number; json?: unknown };

/**
 * Replaces fetch with a router of `"METHOD /path"` handlers. Unknown calls fail the test loudly
 * instead of hanging. Returns the mock so tests can inspect what was sent.
 */
export function mockFetch(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const url = new URL(String(input), 'http://localhost');
    const handler = handlers[`${method} ${url.pathname}`];
    if (!handler) throw new Error(`Unexpected request ${method} ${url.pathname}`);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const { status = 200, json = {} } = handler(body);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The requests a fetch mock received, as "METHOD /path" strings with their parsed JSON bodies. */
export function requestsOf(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.map(([input, init]) => ({
    route: `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
    body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
  }));
}
