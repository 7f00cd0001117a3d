import { describe, expect, it } from 'vitest';
import { RequireAuth } from '../features/accounts/require-auth.tsx';
import { preloadOf, routes } from './router.tsx';

const layout = routes[0]?.children ?? [];
const guard = layout.find((r) => !r.path && r.children);
const protectedScreens = guard?.children ?? [];
const screens = [...layout.filter((r) => r !== guard), ...protectedScreens];

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

describe('signed-in routes', () => {
  it('sit under one RequireAuth layout route', () => {
    expect((guard?.element as { type?: unknown } | undefined)?.type).toBe(RequireAuth);
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
