import type { StoredFile } from '@cohort/shared/files';
/**
 * One conversation (a channel or a direct-message pair) as the client holds it, independent of React
 * and of the transport so its guarantees can be tested on their own:
 *
 * - Stored messages are kept by `_id`, ordered by their server `seq` (gapless per conversation).
 * - `syncedSeq` is the seq up to which the client is known to hold everything. A message beyond
 *   `syncedSeq + 1`, or any (re)connection, triggers a backfill `after=syncedSeq` until the server has
 *   nothing more, so a dropped connection, a restart or a switch of node loses nothing.
 * - Unsent messages live in an outbox (memory + local storage) keyed by their `clientId`. They are
 *   sent when a connection exists, resent with the same `clientId` after every reconnection (the
 *   server treats it as an idempotency key), and leave the outbox when the stored message with that
 *   `clientId` arrives, through the acknowledgement, the broadcast or a history fetch, whichever is
 *   first. Nothing is ever shown twice.
 *
 * State model
 *
 * States of the conversation (`status`):
 *   loading ──load() ok──▶ ready          loading ──load() fails──▶ error
 *   error ──load() or onConnected()──▶ loading … (a failed retry stays in error)
 *   ready stays ready: later failures (older page, backfill) never leave it; backfills retry instead.
 * `syncedSeq` is null until the first page arrives; from then on it only grows.
 *
 * States of an outbox entry (keyed by `clientId`):
 *   send() ──▶ sending ──ack ok / broadcast / history with its clientId──▶ removed (now a stored message)
 *   sending ──ack {ok:false}, transient reason──▶ sending (the whole outbox pauses, then resumes)
 *   sending ──ack {ok:false}──▶ failed + rejected ──retry()──▶ sending      (discard() removes it)
 *   sending ──no ack in time, still connected──▶ failed ──onConnected() or retry()──▶ sending
 *   sending ──no ack, disconnected──▶ sending (resent by the reconnection's flush)
 *
 * Transitions driven from outside: load(), onConnected() (backfill after=syncedSeq then changes since
 * syncedRev, and flush the outbox), receive()/receiveUpdate() (socket events), loadOlder(), send(),
 * retry(), discard(), dispose() (after which every answer still on its way is ignored).
 *
 * Invariants:
 *   - `messages` holds one copy per `_id` (the one with the highest `rev`), sorted by seq.
 *   - No clientId is both in `outbox` and in `messages` in any emitted state (merge removes the entry
 *     and adds the message in one notification).
 *   - Every seq from the first page's oldest up to `syncedSeq` is held; a held seq above it means a
 *     gap, which a backfill fills after `gapGraceMs`.
 *   - At most one send is in flight (the pump) and at most one backfill (later calls coalesce).
 *   - The outbox in local storage (`outboxKey`) always equals `outbox`.
 */

export interface StoredMessage {
  _id: string;
  seq: number;
  clientId: string;
  /** The conversation's change counter at the message's last change: of two copies, the higher wins. */
  rev: number;
}

export type SendAck<M> = { ok: true; message: M } | { ok: false; message: string };

export interface ConversationSource<M extends StoredMessage> {
  /** The newest `limit` messages, oldest first. */
  latest(limit: number): Promise<M[]>;
  /** The oldest `limit` messages with seq > `seq`, oldest first. */
  after(seq: number, limit: number): Promise<M[]>;
  /** The newest `limit` messages with seq < `seq`, oldest first. */
  before(seq: number, limit: number): Promise<M[]>;
  /** `limit` messages centred on `seq`, oldest first (a conversation opened at an old message). */
  around?(seq: number, limit: number): Promise<M[]>;
  /** The oldest `limit` messages changed (or inserted) after `rev`, by rev ascending. */
  changes(rev: number, limit: number): Promise<M[]>;
  /** Sends and resolves with the server's acknowledgement; rejects when none arrives. */
  send(clientId: string, content: string, attachmentIds: string[]): Promise<SendAck<M>>;
  /** Whether `send` can reach the server right now. */
  isConnected(): boolean;
}

export type OutboxStatus = 'sending' | 'failed';

export interface OutboxEntry {
  clientId: string;
  content: string;
  /** Files already uploaded for this conversation, sent with the message. */
  attachments?: StoredFile[];
  /** ISO time the user pressed Send; orders pending messages and shows their time. */
  createdAt: string;
  status: OutboxStatus;
  /** Why it failed: the server's reason, or that no acknowledgement came. */
  error?: string;
  /** The server refused it (`{ok: false}`); only the user's Retry sends it again. */
  rejected?: boolean;
}

export interface ConversationState<M extends StoredMessage> {
  /** Stored messages, by seq ascending. */
  messages: M[];
  /** Messages not yet stored, in the order they were written. */
  outbox: OutboxEntry[];
  status: 'loading' | 'ready' | 'error';
  hasOlder: boolean;
  loadingOlder: boolean;
}

export interface ConversationOptions {
  /** Local-storage key of the outbox; without one the outbox lives in memory only. */
  outboxKey?: string;
  /** Page size of the first load and of each older page (the server's default is 50). */
  pageSize?: number;
  /**
   * Open at this seq instead of at the newest page (a search hit): the first page is centred on it,
   * and the backfill after the connection brings everything newer, as after a reconnection.
   */
  anchorSeq?: number;
  /** Page size of backfills (the server's maximum is 200). */
  backfillPageSize?: number;
  /** How long a sent message waits for its acknowledgement before it shows as failed. */
  ackTimeoutMs?: number;
  /**
   * How long a detected gap may stay open before a fetch fills it: a broadcast already on its way
   * (another node, a slower path than our own acknowledgement) usually closes it for free.
   */
  gapGraceMs?: number;
  /** Wait before retrying a backfill whose request failed. */
  retryMs?: number;
  /** Refusals that pass by themselves (the server's flood guard): the outbox waits and resends. */
  transientReasons?: readonly string[];
  /** How long the outbox waits after a transient refusal. */
  transientRetryMs?: number;
  newClientId?: () => string;
  now?: () => Date;
}

export const ACK_TIMEOUT_MS = 10_000;
export const NOT_DELIVERED = 'Not delivered';

export class ConversationStore<M extends StoredMessage> {
  private state: ConversationState<M>;
  private readonly listeners = new Set<() => void>();
  private readonly byId = new Map<string, M>();
  private readonly seqs = new Set<number>();
  private syncedSeq: number | null = null;
  /** Every change up to this rev is reflected in what is held (docs/realtime.md, rev). */
  private syncedRev = 0;
  private backfilling = false;
  private backfillAgain = false;
  private resyncAfterLoad = false;
  private pumping = false;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private gapTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private loading = false;
  private readonly opts: Required<Omit<ConversationOptions, 'outboxKey' | 'anchorSeq'>> & {
    outboxKey?: string;
    anchorSeq?: number;
  };

  constructor(
    private readonly source: ConversationSource<M>,
    options: ConversationOptions = {},
  ) {
    this.opts = {
      pageSize: 50,
      backfillPageSize: 200,
      ackTimeoutMs: ACK_TIMEOUT_MS,
      gapGraceMs: 300,
      retryMs: 3000,
      transientReasons: [],
      transientRetryMs: 5000,
      newClientId: () => crypto.randomUUID(),
      now: () => new Date(),
      ...options,
    };
    this.state = {
      messages: [],
      outbox: readOutbox(this.opts.outboxKey),
      status: 'loading',
      hasOlder: false,
      loadingOlder: false,
    };
  }

  // -------------------------------------------------------------------------------------------------
  // Reading (shaped for React's useSyncExternalStore)

  getState = (): ConversationState<M> => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The highest seq held with nothing missing below it (down to the first page loaded). */
  get lastSeq(): number | null {
    return this.syncedSeq;
  }

  // -------------------------------------------------------------------------------------------------
  // Life cycle

  /** The first load: the newest page. Also the retry after a failed first load. */
  async load(): Promise<void> {
    if (this.loading || this.disposed) return;
    this.loading = true;
    this.set({ status: this.state.status === 'ready' ? 'ready' : 'loading' });
    try {
      const anchor = this.opts.anchorSeq;
      const anchored = anchor !== undefined && this.syncedSeq === null && this.source.around;
      const page = anchored
        ? ((await this.source.around?.(anchor, this.opts.pageSize)) ?? [])
        : await this.source.latest(this.opts.pageSize);
      if (this.disposed) return;
      const newest = page.reduce((max, m) => Math.max(max, m.seq), 0);
      // Everything up to the newest message of the page is held (the page is contiguous); for the
      // newest page that is everything, for an anchored one the backfill brings the rest.
      this.syncedSeq = Math.max(this.syncedSeq ?? 0, newest);
      this.syncedRev = Math.max(this.syncedRev, ...page.map((m) => m.rev));
      const oldest = page[0]?.seq;
      this.set({ status: 'ready', hasOlder: oldest !== undefined && oldest > 1 });
      this.merge(page);
      if (this.resyncAfterLoad) {
        // A connection came up while the page was on its way: what was posted in between is
        // in neither the page nor the broadcasts (we were not in the room yet).
        this.resyncAfterLoad = false;
        void this.backfill();
      }
    } catch {
      if (!this.disposed && this.state.status !== 'ready') this.set({ status: 'error' });
    } finally {
      this.loading = false;
    }
  }

  /**
   * Call after every successful (re)connection, once the client is in the conversation's room: fetch
   * what was missed and send what is waiting.
   */
  onConnected(): void {
    if (this.disposed) return;
    if (this.state.status === 'ready') void this.backfill();
    else {
      this.resyncAfterLoad = true;
      if (this.state.status === 'error') void this.load();
    }
    this.flushOutbox();
  }

  /** Stops timers and ignores every answer still on its way. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.gapTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.pauseTimer);
    this.listeners.clear();
  }

  // -------------------------------------------------------------------------------------------------
  // Incoming

  /** A message pushed by the server (broadcast). */
  receive(message: M): void {
    if (this.disposed) return;
    this.merge([message]);
  }

  /**
   * A message's new state (edited, deleted, reacted to, replied to). Held messages take it when it is
   * newer; one above what is held is new and merged; an older one not held is left for its page.
   */
  receiveUpdate(message: M): void {
    if (this.disposed) return;
    if (this.byId.has(message._id) || (this.syncedSeq !== null && message.seq > this.syncedSeq)) {
      this.merge([message]);
    }
  }

  /** The page above the oldest message held (infinite scroll upwards). */
  async loadOlder(): Promise<void> {
    const oldest = this.state.messages[0];
    if (this.disposed || this.state.loadingOlder || !this.state.hasOlder || !oldest) return;
    this.set({ loadingOlder: true });
    try {
      const page = await this.source.before(oldest.seq, this.opts.pageSize);
      if (this.disposed) return;
      const first = page[0]?.seq;
      this.set({ loadingOlder: false, hasOlder: first !== undefined && first > 1 });
      this.merge(page);
    } catch {
      if (!this.disposed) this.set({ loadingOlder: false });
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Outgoing

  /** Queues a message; it is sent now if connected, else as soon as a connection exists. */
  send(content: string, attachments: StoredFile[] = []): OutboxEntry | null {
    const text = content.trim();
    if ((!text && attachments.length === 0) || this.disposed) return null;
    const entry: OutboxEntry = {
      clientId: this.opts.newClientId(),
      content: text,
      ...(attachments.length > 0 ? { attachments } : {}),
      createdAt: this.opts.now().toISOString(),
      status: 'sending',
    };
    this.setOutbox([...this.state.outbox, entry]);
    void this.pump();
    return entry;
  }

  /** Sends a failed message again with the same clientId, so it can never be stored twice. */
  retry(clientId: string): void {
    if (this.disposed) return;
    this.updateEntry(clientId, { status: 'sending', error: undefined, rejected: undefined });
    void this.pump();
  }

  /** Drops a failed message the user no longer wants sent. */
  discard(clientId: string): void {
    this.setOutbox(this.state.outbox.filter((e) => e.clientId !== clientId));
  }

  private flushOutbox(): void {
    // A message that got no acknowledgement may or may not be stored: resending it is safe (same
    // clientId) and the only way to know. One the server refused waits for the user's Retry.
    for (const entry of this.state.outbox) {
      if (entry.status === 'failed' && !entry.rejected)
        this.updateEntry(entry.clientId, { status: 'sending' });
    }
    void this.pump();
  }

  /**
   * Sends the waiting messages one at a time, oldest first: the server handles events concurrently,
   * so only waiting for each acknowledgement keeps the conversation in the order the user wrote it.
   */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        if (this.disposed || !this.source.isConnected() || this.pauseTimer !== undefined) return;
        const next = this.state.outbox.find((e) => e.status === 'sending');
        if (!next) return;
        await this.attempt(next);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async attempt(entry: OutboxEntry): Promise<void> {
    const { clientId } = entry;
    try {
      const ack = await withTimeout(
        this.source.send(
          clientId,
          entry.content,
          (entry.attachments ?? []).map((a) => a._id),
        ),
        this.opts.ackTimeoutMs,
      );
      if (this.disposed) return;
      if (ack.ok) this.merge([ack.message]);
      else if (this.opts.transientReasons.includes(ack.message)) this.pause();
      else this.updateEntry(clientId, { status: 'failed', error: ack.message, rejected: true });
    } catch {
      if (this.disposed) return;
      // Without a connection the message stays queued: the reconnection resends it. With one, the
      // server did not answer in time; show it as failed (reconnecting or Retry sends it again).
      if (this.source.isConnected()) this.updateEntry(clientId, { status: 'failed', error: NOT_DELIVERED });
    }
  }

  /** A refusal that passes (the flood guard): keep everything queued, in order, and try again later. */
  private pause(): void {
    clearTimeout(this.pauseTimer);
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = undefined;
      void this.pump();
    }, this.opts.transientRetryMs);
  }

  // -------------------------------------------------------------------------------------------------
  // Merging and gap repair

  private merge(incoming: M[]): void {
    let added = false;
    const delivered = new Set<string>();
    for (const message of incoming) {
      delivered.add(message.clientId);
      const held = this.byId.get(message._id);
      if (held && held.rev >= message.rev) continue;
      this.byId.set(message._id, message);
      this.seqs.add(message.seq);
      added = true;
    }
    const outbox = this.state.outbox.filter((e) => !delivered.has(e.clientId));
    const outboxChanged = outbox.length !== this.state.outbox.length;
    // One notification for both changes, so no render ever shows a message twice (stored and pending).
    if (outboxChanged) this.setOutbox(outbox, false);
    if (added) {
      const messages = [...this.byId.values()].sort((a, b) => a.seq - b.seq);
      this.set({ messages });
    } else if (outboxChanged) {
      this.emit();
    }
    this.advance();
  }

  /** Moves syncedSeq over messages held in a row; a message beyond it is a gap to fill. */
  private advance(): void {
    if (this.syncedSeq === null) return;
    while (this.seqs.has(this.syncedSeq + 1)) this.syncedSeq += 1;
    const newest = this.state.messages.at(-1)?.seq ?? 0;
    if (newest > this.syncedSeq) this.scheduleBackfill(this.opts.gapGraceMs);
  }

  private scheduleBackfill(delayMs: number): void {
    if (this.gapTimer !== undefined || this.disposed) return;
    if (delayMs <= 0) {
      void this.backfill();
      return;
    }
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      const newest = this.state.messages.at(-1)?.seq ?? 0;
      if (this.syncedSeq !== null && newest > this.syncedSeq) void this.backfill();
    }, delayMs);
  }

  /** Fetches `after=syncedSeq` until the server has nothing more. One at a time; calls coalesce. */
  private async backfill(): Promise<void> {
    if (this.syncedSeq === null || this.disposed) return;
    if (this.backfilling) {
      this.backfillAgain = true;
      return;
    }
    this.backfilling = true;
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    try {
      do {
        this.backfillAgain = false;
        for (;;) {
          const from: number = this.syncedSeq ?? 0;
          const page = await this.source.after(from, this.opts.backfillPageSize);
          if (this.disposed) return;
          // The server sent everything above `from` up to the page's newest: nothing below it is missing.
          const newest = page.reduce((max, m) => Math.max(max, m.seq), from);
          this.syncedSeq = Math.max(this.syncedSeq ?? 0, newest);
          this.merge(page);
          if (page.length < this.opts.backfillPageSize) break;
        }
        // Then what changed while we were away (edits, deletes, reactions, replies' counts).
        for (;;) {
          const page = await this.source.changes(this.syncedRev, this.opts.backfillPageSize);
          if (this.disposed) return;
          for (const m of page) this.receiveUpdate(m);
          this.syncedRev = Math.max(this.syncedRev, ...page.map((m) => m.rev));
          if (page.length < this.opts.backfillPageSize) break;
        }
      } while (this.backfillAgain);
    } catch {
      // Offline or the server is restarting: try again shortly; a reconnection also retries.
      if (!this.disposed) {
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => {
          if (this.source.isConnected()) void this.backfill();
        }, this.opts.retryMs);
      }
    } finally {
      this.backfilling = false;
    }
  }

  // -------------------------------------------------------------------------------------------------
  // State plumbing

  private set(patch: Partial<ConversationState<M>>): void {
    this.state = { ...this.state, ...patch };
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private setOutbox(outbox: OutboxEntry[], notify = true): void {
    this.state = { ...this.state, outbox };
    writeOutbox(this.opts.outboxKey, outbox);
    if (notify) this.emit();
  }

  private updateEntry(clientId: string, patch: Partial<OutboxEntry>): void {
    if (!this.state.outbox.some((e) => e.clientId === clientId)) return;
    this.setOutbox(this.state.outbox.map((e) => (e.clientId === clientId ? { ...e, ...patch } : e)));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------------
// Outbox persistence: a reload (or a crash of the tab) must not lose what the user wrote.

function isOutboxEntry(value: unknown): value is OutboxEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.clientId === 'string' &&
    typeof e.content === 'string' &&
    typeof e.createdAt === 'string' &&
    (e.attachments === undefined || Array.isArray(e.attachments)) &&
    (e.status === 'sending' || e.status === 'failed')
  );
}

function readOutbox(key: string | undefined): OutboxEntry[] {
  if (!key) return [];
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isOutboxEntry) : [];
  } catch {
    return [];
  }
}

function writeOutbox(key: string | undefined, outbox: OutboxEntry[]): void {
  if (!key) return;
  try {
    if (outbox.length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(outbox));
  } catch {
    // Storage full or unavailable: the outbox still works for this page's lifetime.
  }
}
