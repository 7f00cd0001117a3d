import type { FastifyBaseLogger } from 'fastify';

/**
 * A queue table drained in the background: `drain()` handles one batch and answers how many rows it
 * claimed; the drainer repeats while batches come back full, runs again when woken during a pass,
 * polls every `pollMs` (0: only when woken), and survives a database that is briefly away (the next
 * poll tries again). Used by the mail outbox and the event outbox.
 */
export abstract class PollingDrainer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  protected constructor(
    private readonly log: FastifyBaseLogger,
    /** For the log line of a failed pass, e.g. "mail outbox". */
    private readonly what: string,
    private readonly batch: number,
  ) {}

  /** One pass over due rows; returns how many were claimed. */
  abstract drain(): Promise<number>;

  protected startPolling(pollMs: number) {
    if (pollMs > 0) {
      this.timer = setInterval(() => this.wake(), pollMs);
      this.timer.unref();
    }
    this.wake();
    return this;
  }

  /** Drains now, without waiting for the next poll. */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /** Stops polling and waits for a pass in flight (before the database closes). */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async loop() {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.drain()) === this.batch) {}
      } catch (err) {
        this.log.warn({ err }, `${this.what} drain failed`);
      }
    } while (this.again && !this.stopped);
  }
}
