import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MARK_READ_DELAY_MS, useMarkRead } from './use-mark-read.ts';

afterEach(() => vi.useRealTimers());

describe('useMarkRead', () => {
  it('sends one mark per burst, after the delay', () => {
    vi.useFakeTimers();
    const mark = vi.fn(async () => undefined);
    const { rerender } = renderHook(
      (newestSeq: number) => useMarkRead({ enabled: true, newestSeq, markedSeq: 2, mark }),
      {
        initialProps: 3,
      },
    );
    rerender(4);
    expect(mark).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MARK_READ_DELAY_MS);
    expect(mark.mock.calls).toEqual([[4]]);
  });

  it('sends a pending mark at once when the page is left or reloaded', () => {
    vi.useFakeTimers();
    const mark = vi.fn(async () => undefined);
    renderHook(() => useMarkRead({ enabled: true, newestSeq: 7, markedSeq: 2, mark }));
    window.dispatchEvent(new Event('pagehide'));
    expect(mark.mock.calls).toEqual([[7]]);
    vi.advanceTimersByTime(MARK_READ_DELAY_MS);
    expect(mark).toHaveBeenCalledTimes(1);
  });
});
