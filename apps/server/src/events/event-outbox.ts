import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { PollingDrainer } from '../db/polling-drainer.ts';
import { eventOutbox } from '../db/schema.ts';
import type { AppEvents } from './event-bus.ts';

/** The events that go through the outbox (their side effects must not be lost after the commit). */
export type OutboxEventName = 'messageCreated';

/** A claimed row stays invisible to other drainers this long (far longer than any subscriber). */
const CLAIM_MS = 60_000;
/** Rows younger than this belong to the node that wrote them (it delivers them right after commit). */
const ORPHAN_AFTER_MS = 10_000;
/** A row whose delivery crashed its node this many times is dropped (logged), not retried forever. */
const MAX_ATTEMPTS = 5;
const BATCH = 50;

export interface EventOutboxOptions {
  /** How often orphaned rows are looked for; 0 disables polling (tests drain by hand). */
  pollMs?: number;
}

/**
 * Writes an outbox row in the caller's transaction: the event is then delivered even if this node
 * dies between the commit and its publish. `key` is the id of what the event is about.
 */
export async function queueEvent<K extends OutboxEventName>(
  db: Db,
  name: K,
  key: string,
  payload: AppEvents[K],
) {
  await db.insert(eventOutbox).values({ name, key, payload });
}

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

  /** Delivers the row of this event written by this node's commit (unless another node claimed it). */
  async deliver(name: OutboxEventName, key: string) {
    const claimed = await this.claim(sql`name = ${name} and key = ${key}`);
    for (const row of claimed) await this.publish(row);
  }

  /** One pass over orphaned rows; returns how many were claimed. */
  async drain(): Promise<number> {
    const now = this.ctx.now();
    const before = new Date(now.getTime() - ORPHAN_AFTER_MS);
    // New rows carry the database's now(); tests move the app clock: orphaned by either.
    const claimed = await this.claim(
      sql`created_at <= greatest(now() - ${`${ORPHAN_AFTER_MS} milliseconds`}::interval, ${before.toISOString()}::timestamptz)`,
    );
    for (const row of claimed) await this.publish(row);
    return claimed.length;
  }

  private async claim(where: ReturnType<typeof sql>): Promise<Claimed[]> {
    const now = this.ctx.now();
    const until = new Date(now.getTime() + CLAIM_MS);
    const result = await this.ctx.db.execute(sql`
      update ${eventOutbox}
      set locked_until = ${until.toISOString()}::timestamptz, attempts = attempts + 1
      where id in (
        select id from ${eventOutbox}
        where ${where}
          and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
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
