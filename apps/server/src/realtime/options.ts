import { CALL_RING_TIMEOUT_MS } from '@cohort/shared/calls';
import {
  SEND_RATE_LIMIT,
  SEND_RATE_WINDOW_MS,
  TYPING_EXPIRE_MS,
  TYPING_THROTTLE_MS,
} from '@cohort/shared/chat';
import { ACTIVITY_RATE_LIMIT, ACTIVITY_RATE_WINDOW_MS, OFFLINE_GRACE_MS } from '@cohort/shared/presence';

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
  /** How long a user whose last tab closed stays online/away before going offline. */
  presenceGraceMs: number;
  /** With Redis: how long a node may go without a heartbeat before its users' tabs stop counting. */
  presenceNodeTimeoutMs: number;
  /** Flood guard of the presence `activity` event, per socket. */
  activityRateLimit: number;
  activityRateWindowMs: number;
  /** How long a 1:1 call rings before it is a missed call (CALL_RING_TIMEOUT_MS). */
  ringTimeoutMs: number;
}

export const defaultRealtimeOptions = (): RealtimeOptions => ({
  typingThrottleMs: TYPING_THROTTLE_MS,
  typingExpireMs: TYPING_EXPIRE_MS,
  sendRateLimit: SEND_RATE_LIMIT,
  sendRateWindowMs: SEND_RATE_WINDOW_MS,
  sessionCheckMs: 2000,
  roomCheckMs: 10_000,
  presenceGraceMs: OFFLINE_GRACE_MS,
  presenceNodeTimeoutMs: 30_000,
  activityRateLimit: ACTIVITY_RATE_LIMIT,
  activityRateWindowMs: ACTIVITY_RATE_WINDOW_MS,
  ringTimeoutMs: CALL_RING_TIMEOUT_MS,
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

/**
 * A sliding-window counter per user, shared by every socket and HTTP request of that user on this
 * node: opening more sockets (or posting over HTTP instead) does not raise anyone's rate.
 */
export class PerUserLimiter {
  private readonly stamps = new Map<string, number[]>();
  constructor(
    private readonly limit: () => number,
    private readonly windowMs: () => number,
  ) {}

  take(userId: string, now = Date.now()): boolean {
    const since = now - this.windowMs();
    const list = (this.stamps.get(userId) ?? []).filter((at) => at > since);
    if (list.length >= this.limit()) {
      this.stamps.set(userId, list);
      return false;
    }
    list.push(now);
    this.stamps.set(userId, list);
    // Forget users who went quiet, so the map does not grow with everyone who ever sent.
    if (this.stamps.size > 10_000) {
      for (const [id, l] of this.stamps) if (l.every((at) => at <= since)) this.stamps.delete(id);
    }
    return true;
  }
}

const sendLimiters = new WeakMap<object, PerUserLimiter>();

/** The message-send limiter of one app (keyed by its context): chat and direct messages share it. */
export function messageSendLimiter(app: object, options: RealtimeOptions): PerUserLimiter {
  let limiter = sendLimiters.get(app);
  if (!limiter) {
    limiter = new PerUserLimiter(
      () => options.sendRateLimit,
      () => options.sendRateWindowMs,
    );
    sendLimiters.set(app, limiter);
  }
  return limiter;
}
