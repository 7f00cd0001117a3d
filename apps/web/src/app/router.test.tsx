import { describe, expect, it } from 'vitest';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import { preloadOf, routes } from './router.tsx';

const layout = routes[0]?.children ?? [];
// The query cache's scope (every screen that reads the server), and inside it the session guard.
const scope = layout.find((r) => !r.path && r.children);
const guard = scope?.children?.find((r) => !r.path && r.children);
const protectedScreens = guard?.children ?? [];
const screens = [
  ...layout.filter((r) => r !== scope),
  ...(scope?.children ?? []).filter((r) => r !== guard),
  ...protectedScreens,
];

describe('route preloading', () => {
  it('can fetch every screen, the landing page included, ahead of its render (the server preloads it too)', () => {
    expect(screens.length).toBeGreaterThan(20);
    for (const route of screens) expect(preloadOf(route.element), route.path).toBeTypeOf('function');
  });

  it("loads the protected screen's own module", async () => {
    const task = screens.find((r) => r.path === '/task');
    const module = (await preloadOf(task?.element)?.()) as { default: unknown };
    expect(module.default).toBe((await import('../features/tasks/taskboard-page.tsx')).default);
  });
});

describe('the query cache', () => {
  it('wraps every screen but the ones that read nothing from the server', () => {
    const outside = layout.filter((r) => r !== scope).map((r) => r.path);
    expect(outside).toEqual(['/', '/pricing', '*']);
    expect(preloadOf(scope?.element)).toBeTypeOf('function');
  });
});

describe('signed-in routes', () => {
  it('sit under one RequireAuth layout route', async () => {
    const guardModule = (await preloadOf(guard?.element)?.()) as { default: unknown };
    expect(guardModule.default).toBe(RequireAuth);
    const paths = protectedScreens.map((r) => r.path);
    for (const path of [
      '/task',
      '/dashboard',
      '/workspace/:workspaceName',
      '/chat',
      '/livechat',
      '/search',
      '/tasks/:taskId',
    ])
      expect(paths).toContain(path);
    for (const path of ['/', '/login', '/signup', '/pricing', '/canvas', '/contact', '*'])
      expect(paths).not.toContain(path);
  });
});
