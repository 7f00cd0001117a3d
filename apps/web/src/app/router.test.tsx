import { describe, expect, it } from 'vitest';
import { preloadOf, routes } from './router.tsx';

const screens = routes[0]?.children ?? [];

describe('route preloading', () => {
  it('can fetch every lazily loaded screen ahead of its render, the landing page being in the bundle', () => {
    expect(screens.length).toBeGreaterThan(20);
    for (const route of screens) {
      if (route.path === '/') expect(preloadOf(route.element)).toBeUndefined();
      else expect(preloadOf(route.element), route.path).toBeTypeOf('function');
    }
  });

  it("loads the protected screen's own module, through RequireAuth", async () => {
    const task = screens.find((r) => r.path === '/task');
    const module = (await preloadOf(task?.element)?.()) as { default: unknown };
    expect(module.default).toBe((await import('../features/tasks/taskboard-page.tsx')).default);
  });
});
