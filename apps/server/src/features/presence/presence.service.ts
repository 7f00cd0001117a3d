import type { ActivityState } from '@cohort/shared/presence';
import type { AppContext } from '../../context.ts';
import type { RealtimeOptions } from '../../realtime/options.ts';
import type { LocalEntry, PresenceStore, StatusChange } from './presence.store.ts';

/**
 * This node's tabs, folded per user into the store. A user's state here is 'active' when any of
 * their tabs on this node is active, 'idle' when all are idle, none when no tab is left — but only
 * after a grace period, so a reload (or a reconnect to another node) does not flap to offline. Only
 * changes of that folded state reach the store, one user's writes in order.
 */
export class PresenceTracker {
  private readonly tabs = new Map<string, Map<string, ActivityState>>();
  /** What this node last wrote for each user. */
  private readonly written = new Map<string, ActivityState>();
  private readonly grace = new Map<string, NodeJS.Timeout>();
  private readonly chains = new Map<string, Promise<void>>();
  private ticker: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: PresenceStore,
    private readonly options: RealtimeOptions,
    private readonly announce: (changes: StatusChange[]) => Promise<void>,
  ) {}

  async start() {
    await this.store.start();
    // A third of the timeout: two heartbeats may be lost before others take this node for dead.
    const every = Math.max(250, Math.floor(this.options.presenceNodeTimeoutMs / 3));
    this.ticker = setInterval(() => void this.tick(), every);
    this.ticker.unref();
  }

  connected(userId: string, socketId: string) {
    if (this.closed) return;
    const tabs = this.tabs.get(userId) ?? new Map<string, ActivityState>();
    this.tabs.set(userId, tabs);
    tabs.set(socketId, 'active');
    clearTimeout(this.grace.get(userId));
    this.grace.delete(userId);
    this.sync(userId);
  }

  reported(userId: string, socketId: string, state: ActivityState) {
    const tabs = this.tabs.get(userId);
    if (this.closed || !tabs?.has(socketId)) return;
    tabs.set(socketId, state);
    this.sync(userId);
  }

  disconnected(userId: string, socketId: string) {
    const tabs = this.tabs.get(userId);
    if (this.closed || !tabs?.delete(socketId)) return;
    if (tabs.size > 0) return this.sync(userId);
    this.tabs.delete(userId);
    clearTimeout(this.grace.get(userId));
    const timer = setTimeout(() => {
      this.grace.delete(userId);
      this.sync(userId);
    }, this.options.presenceGraceMs);
    timer.unref();
    this.grace.set(userId, timer);
  }

  private stateOf(userId: string): ActivityState | null {
    const tabs = this.tabs.get(userId);
    if (!tabs) return null;
    for (const state of tabs.values()) if (state === 'active') return 'active';
    return 'idle';
  }

  /** Queues a write of the user's current state (read when its turn comes, so bursts coalesce). */
  private sync(userId: string) {
    const run = async () => {
      if (this.closed || this.grace.has(userId)) return;
      const state = this.stateOf(userId);
      if (state === (this.written.get(userId) ?? null)) return;
      if (state) this.written.set(userId, state);
      else this.written.delete(userId);
      await this.announce(await this.store.write([[userId, state]]));
    };
    const chain = (this.chains.get(userId) ?? Promise.resolve())
      .then(run)
      .catch((err) => this.ctx.log.error({ err, userId }, 'presence update failed'));
    this.chains.set(userId, chain);
    void chain.then(() => {
      if (this.chains.get(userId) === chain) this.chains.delete(userId);
    });
  }

  private async tick() {
    try {
      const current = (): LocalEntry[] => [...this.written];
      await this.announce(await this.store.tick(current));
    } catch (err) {
      this.ctx.log.error({ err }, 'presence heartbeat failed');
    }
  }

  async close() {
    this.closed = true;
    clearInterval(this.ticker);
    for (const timer of this.grace.values()) clearTimeout(timer);
    this.grace.clear();
    await this.store.stop(this.options.presenceGraceMs);
  }
}
