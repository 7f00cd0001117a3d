import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { PollingDrainer } from '../db/polling-drainer.ts';
import { eventOutbox } from '../db/schema.ts';
import type { AppEvents } from './event-bus.ts';

/** The events that go through the outbox (their side effects must not be lost after the commit). */
export type OutboxEventName = 'messageCreated';

/** A claimed row stays invisible to other drainers this long (far longer than any subscriber). */
const CLAIM_MS = 60_000;
/** A new row is claimed by the node that wrote it this long (it delivers it right after commit). */
export const ORPHAN_AFTER_MS = 10_000;
/** A row whose delivery crashed its node this many times is dropped (logged), not retried forever. */
const MAX_ATTEMPTS = 5;
const BATCH = 50;

export interface EventOutboxOptions {
  /** How often orphaned rows are looked for; 0 disables polling (tests drain by hand). */
  pollMs?: number;
}

/** An event's payload before its message has an id (each member of a union keeps its own fields). */
type WithoutMessageId<E> = E extends unknown ? Omit<E, 'messageId'> : never;

/**
 * The outbox row of an event, as a CTE to add to the statement that writes what the event is about,
 * so both commit together in one statement (no transaction, no extra round trip). `keySql` is the id
 * of what the event is about (a message id, from an earlier CTE); the payload gets it as `messageId`.
 * The row is born claimed by the writing node, which publishes it right after the commit
 * (`EventOutbox.deliver`); only if that node dies does another node's drainer find it, once the claim
 * runs out. The statements that use it are prepared, so `values` are their placeholders; their values
 * come from `outboxPayload` and `outboxClaimedUntil`.
 */
export function queuedEventSql(
  name: OutboxEventName,
  from: SQL,
  keySql: SQL,
  values: { payload: SQLWrapper; claimedUntil: SQLWrapper; createdAt: SQLWrapper },
): SQL {
  return sql`insert into ${eventOutbox} (name, key, payload, attempts, locked_until, created_at)
    select ${name}, ${keySql}::text, ${values.payload}::jsonb || jsonb_build_object('messageId', ${keySql}),
      1, ${values.claimedUntil}::timestamptz, ${values.createdAt}::timestamptz
    from ${from}`;
}

/** The payload of an outbox row, as its `payload` value (JSON text). */
export const outboxPayload = <K extends OutboxEventName>(_name: K, payload: WithoutMessageId<AppEvents[K]>) =>
  JSON.stringify(payload);

/** Until when a row written at `now` stays claimed by its writer. */
export const outboxClaimedUntil = (now: Date) => new Date(now.getTime() + ORPHAN_AFTER_MS).toISOString();

interface Claimed {
  id: string;
  name: OutboxEventName;
  payload: unknown;
  attempts: number;
}

/**
 * Delivers event_outbox rows on the app's bus, then deletes them (at least once: a node dying
 * mid-delivery leaves the row to be claimed again after CLAIM_MS). The writer delivers its own row
 * right after commit (`deliver`); a timer picks up rows left behind by a node that died. Claims are
 * atomic (FOR UPDATE SKIP LOCKED plus locked_until), like the mail outbox (features/mail).
 */
export class EventOutbox extends PollingDrainer {
  constructor(
    private readonly ctx: AppContext,
    private readonly opts: EventOutboxOptions = {},
  ) {
    super(ctx.log, 'event outbox', BATCH);
  }

  start() {
    return this.startPolling(this.opts.pollMs ?? 5000);
  }

  /**
   * Publishes an event that this node's commit wrote, then deletes its row when it `queued` one (born
   * claimed: no other node takes it before the claim runs out). Deletes of concurrent deliveries share one
   * statement; this resolves once its row is gone.
   */
  async deliver<K extends OutboxEventName>(
    name: K,
    event: AppEvents[K] & { messageId: string },
    queued: boolean,
  ) {
    await this.ctx.bus.emit(name, event);
    if (queued) await this.deletes.add(event.messageId);
  }

  /** One pass over orphaned rows (claims run out, or rows from before rows were born claimed). */
  async drain(): Promise<number> {
    const now = this.ctx.now();
    const claimed = await this.claim(
      sql`coalesce(locked_until, created_at + ${`${ORPHAN_AFTER_MS} milliseconds`}::interval) <= ${now.toISOString()}::timestamptz`,
    );
    for (const row of claimed) await this.publish(row);
    return claimed.length;
  }

  async stop() {
    await super.stop();
    await this.deletes.idle();
  }

  private readonly deletes = new Coalesced<string>(async (keys) => {
    await this.ctx.db.execute(
      sql`delete from ${eventOutbox} where name = 'messageCreated' and key = any(${`{${keys.join(',')}}`}::text[])`,
    );
  });

  private async claim(where: ReturnType<typeof sql>): Promise<Claimed[]> {
    const now = this.ctx.now();
    const until = new Date(now.getTime() + CLAIM_MS);
    const result = await this.ctx.db.execute(sql`
      update ${eventOutbox}
      set locked_until = ${until.toISOString()}::timestamptz, attempts = attempts + 1
      where id in (
        select id from ${eventOutbox}
        where ${where}
        order by created_at
        limit ${BATCH}
        for update skip locked
      )
      returning id, name, payload, attempts`);
    const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name) as OutboxEventName,
      payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
      attempts: Number(r.attempts),
    }));
  }

  private async publish(row: Claimed) {
    if (row.attempts > MAX_ATTEMPTS) {
      this.ctx.log.error({ id: row.id, event: row.name }, 'event outbox row dropped after repeated attempts');
    } else {
      // The bus logs a failing subscriber; the row is done either way (as before the outbox).
      await this.ctx.bus.emit(row.name, row.payload as AppEvents[OutboxEventName]);
    }
    await this.ctx.db.delete(eventOutbox).where(sql`id = ${row.id}::uuid`);
  }
}

/**
 * Runs `flush` over the items added while the previous flush ran, so a burst of adds costs one call:
 * `add` resolves once a flush that includes its item has finished (and rejects if it failed).
 */
class Coalesced<T> {
  private pending: T[] = [];
  private waiting: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private running: Promise<void> | undefined;

  constructor(private readonly flush: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    this.pending.push(item);
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.running ??= this.loop();
    return done;
  }

  /** Resolves once nothing is pending or running. */
  async idle() {
    while (this.running) await this.running;
  }

  private async loop() {
    // A microtask first, so adds of the same tick join the first flush.
    await Promise.resolve();
    while (this.pending.length > 0) {
      const items = this.pending;
      const waiting = this.waiting;
      this.pending = [];
      this.waiting = [];
      try {
        await this.flush(items);
        for (const w of waiting) w.resolve();
      } catch (err) {
        for (const w of waiting) w.reject(err);
      }
    }
    this.running = undefined;
  }
}
