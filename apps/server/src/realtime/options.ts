import {
  SEND_RATE_LIMIT,
  SEND_RATE_WINDOW_MS,
  TYPING_EXPIRE_MS,
  TYPING_THROTTLE_MS,
} from '@cohort/shared/chat';

/** Timings of the real-time layer; tests shorten them through the object `buildApp` returns. */
export interface RealtimeOptions {
  typingThrottleMs: number;
  typingExpireMs: number;
  sendRateLimit: number;
  sendRateWindowMs: number;
  /** How often each node re-checks the sessions of its sockets (revocation, expiry). */
  sessionCheckMs: number;
  /** How often each node re-checks that its sockets may still read the channels they joined. */
  roomCheckMs: number;
}

export const defaultRealtimeOptions = (): RealtimeOptions => ({
  typingThrottleMs: TYPING_THROTTLE_MS,
  typingExpireMs: TYPING_EXPIRE_MS,
  sendRateLimit: SEND_RATE_LIMIT,
  sendRateWindowMs: SEND_RATE_WINDOW_MS,
  sessionCheckMs: 2000,
  roomCheckMs: 10_000,
});

/** A sliding-window counter per socket: floods are answered with "Slow down", not stored. */
export class SendLimiter {
  private stamps: number[] = [];
  constructor(private readonly options: RealtimeOptions) {}

  take(now = Date.now()): boolean {
    const since = now - this.options.sendRateWindowMs;
    while (this.stamps.length > 0 && (this.stamps[0] ?? 0) <= since) this.stamps.shift();
    if (this.stamps.length >= this.options.sendRateLimit) return false;
    this.stamps.push(now);
    return true;
  }
}
