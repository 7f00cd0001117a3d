import { CALL_REASONS, type CallAck } from '@cohort/shared/calls';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NAME_RETRY_DELAYS_MS, nameFeed } from './sfu-naming.ts';

const total = NAME_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

function run(answers: CallAck[], live = () => true) {
  const asked: number[] = [];
  const gaveUp: number[] = [];
  nameFeed(
    async () => {
      asked.push(Date.now());
      return answers.shift() ?? { ok: false, reason: CALL_REASONS.serverError };
    },
    live,
    () => gaveUp.push(Date.now()),
  );
  return { asked, gaveUp };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('nameFeed', () => {
  it('asks again after refusals that may pass, and stops once named', async () => {
    const { asked, gaveUp } = run([
      { ok: false, reason: CALL_REASONS.slowDown },
      { ok: false, reason: 'no answer' },
      { ok: true },
    ]);
    await vi.advanceTimersByTimeAsync(total * 2);
    expect(asked).toHaveLength(3);
    expect(gaveUp).toEqual([]);
  });

  it('gives up after the last try, so the call ends instead of going on unseen', async () => {
    const { asked, gaveUp } = run([]);
    await vi.advanceTimersByTimeAsync(total - 1);
    expect(gaveUp).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toHaveLength(NAME_RETRY_DELAYS_MS.length + 1);
    expect(gaveUp).toHaveLength(1);
  });

  it('a refusal because access ended is not asked again (room-closed explains it)', async () => {
    const { asked, gaveUp } = run([{ ok: false, reason: CALL_REASONS.forbidden }]);
    await vi.advanceTimersByTimeAsync(total * 2);
    expect(asked).toHaveLength(1);
    expect(gaveUp).toEqual([]);
  });

  it('stops asking once the call it was for is over', async () => {
    let live = true;
    const { asked, gaveUp } = run([], () => live);
    await vi.advanceTimersByTimeAsync(1000);
    live = false;
    await vi.advanceTimersByTimeAsync(total * 2);
    expect(asked).toHaveLength(2);
    expect(gaveUp).toEqual([]);
  });
});
