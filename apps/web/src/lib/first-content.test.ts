import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module decides at load whether the first page waits: load it afresh at a given address. */
async function loadAt(url: string) {
  window.history.replaceState(null, '', url);
  vi.resetModules();
  return import('./first-content.ts');
}

afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('first content', () => {
  it('holds the extras on a first load of a channel until its content has rendered', async () => {
    const { markContentShown, useContentShown } = await loadAt('/workspace/Acme/channel/c1');
    const { result } = renderHook(() => useContentShown());
    expect(result.current).toBe(false);
    act(() => markContentShown());
    expect(result.current).toBe(true);
  });

  it('waits on the task board and a direct conversation too, but not on other pages', async () => {
    for (const url of ['/task', '/task/board/b1', '/chat?with=bob%40example.com']) {
      const { useContentShown } = await loadAt(url);
      expect(renderHook(() => useContentShown()).result.current, url).toBe(false);
    }
    for (const url of ['/', '/dashboard', '/workspace/Acme', '/chat', '/tasks/t1']) {
      const { useContentShown } = await loadAt(url);
      expect(renderHook(() => useContentShown()).result.current, url).toBe(true);
    }
  });

  it('stops waiting after three seconds if the content never says it rendered', async () => {
    vi.useFakeTimers();
    const { useContentShown } = await loadAt('/workspace/Acme/channel/c1');
    const { result } = renderHook(() => useContentShown());
    act(() => vi.advanceTimersByTime(2_900));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(200));
    expect(result.current).toBe(true);
  });
});
