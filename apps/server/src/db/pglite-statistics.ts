import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rowsOf } from './client.ts';
import { PollingDrainer } from './polling-drainer.ts';

/** How often the embedded database's tables are looked at. */
export const STATISTICS_POLL_MS = 10 * 60_000;

/**
 * Gathers the planner's statistics (`ANALYZE`) of every table that has rows but none yet, or grew by
 * a tenth and ten pages since (`relpages`: the size the last ANALYZE, VACUUM or CREATE INDEX saw), and
 * answers their names. PostgreSQL's autovacuum does this on a server; PGlite runs no autovacuum and
 * keeps no row counters to go by, so the size on disk tells. Without statistics a search over
 * 200,000 messages took a second instead of 11 ms (decision 0014). ANALYZE reads a sample of at most
 * 30,000 rows, so a pass stays bounded however large a table gets (289 ms at 157 MiB).
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const grown = rowsOf<{ name: string }>(
    await db.execute(sql`
      select format('%I', c.relname) as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) size
      where n.nspname = 'public' and c.relkind = 'r' and size.pages > 0
        and (size.pages > greatest(c.relpages, 0) * 1.1 + 10
          or not exists (select 1 from pg_statistic s where s.starelid = c.oid))
      order by c.relname`),
  ).map((r) => r.name);
  // One table per statement: the embedded database answers other queries in between.
  for (const name of grown) await db.execute(sql.raw(`analyze ${name}`));
  return grown;
}

/**
 * Vacuums (and analyzes) every table with more dead rows than autovacuum's default threshold allows
 * (50 plus a fifth of its live rows), and answers their names. Deleted rows and rows replaced by an
 * update that changed an indexed column (delivered events in the outbox, edited messages, moved
 * cards) leave dead rows behind, and only VACUUM records their space as free: without it a table
 * that is written and emptied grows by every row it ever held (~66 bytes per row through the event
 * outbox, measured on PGlite, for good). PGlite keeps the row counters this reads
 * (`pg_stat_user_tables`) but runs no autovacuum to act on them. Plain VACUUM skips the pages it knows
 * are unchanged and gives back the empty space at the end of the file; one table per statement, so
 * the embedded database answers other queries in between. Tables that are only inserted into are left
 * alone: vacuuming the messages would read their whole search index every time.
 */
export async function vacuumChurnedTables(db: Db): Promise<string[]> {
  const churned = rowsOf<{ name: string }>(
    await db.execute(sql`
      select format('%I', relname) as name from pg_stat_user_tables
      where schemaname = 'public' and n_dead_tup > 50 + 0.2 * greatest(n_live_tup, 0)
      order by relname`),
  ).map((r) => r.name);
  for (const name of churned) await db.execute(sql.raw(`vacuum (analyze) ${name}`));
  return churned;
}

/** The embedded database's statistics and vacuum, kept current on start and every `pollMs`. */
export class PgliteStatistics extends PollingDrainer {
  constructor(
    log: FastifyBaseLogger,
    private readonly db: Db,
    private readonly pollMs = STATISTICS_POLL_MS,
  ) {
    // No batch size: one pass per poll.
    super(log, 'embedded database statistics and vacuum', Number.POSITIVE_INFINITY);
  }

  start() {
    return this.startPolling(this.pollMs);
  }

  async drain() {
    // Vacuum first: it analyzes what it vacuums, and what it leaves is then judged by its growth.
    const vacuumed = await vacuumChurnedTables(this.db);
    return vacuumed.length + (await analyzeGrownTables(this.db)).length;
  }
}
