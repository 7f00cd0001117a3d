// Storing messages one at a time, as people send them: STORES messages of 6–20 words (the search
// bench's vocabulary) through the real `postChannelMessage`, one after another over CHANNELS channels,
// each store timed. Its tail is what a sender (and, on PGlite's one thread, everyone) waits for.
//
// WAYS compares the search indexes as shipped (migration 0017: no pending list) with `pending-list`
// (fastupdate on, as before 0017): there an insert queues its words, and the insert that finds the list
// past gin_pending_list_limit (4 MB) merges all of it into the index, and every search reads the list.
// After the stores, SEARCHES rare-word searches run through the real search service. Each way gets a
// fresh database; ways alternate within each round on each engine.
//
//   node --import tsx bench/message-store.ts
//   STORES=20000 ENGINES=pglite ROUNDS=2 node --import tsx bench/message-store.ts
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test …   (a bench database is created and dropped there)
import { randomUUID } from 'node:crypto';
import { parseSearchQuery } from '@cohort/shared/search';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { postChannelMessage } from '../apps/server/src/features/chat/chat.service.ts';
import { searchMessages } from '../apps/server/src/features/search/search.service.ts';
import { benchContext, openBenchDatabase, vocabulary } from './database.ts';
import { median, percentile, postgresReachable, report } from './lib.ts';

const STORES = Number(process.env.STORES ?? 40_000);
const CHANNELS = Number(process.env.CHANNELS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const ENGINES = (process.env.ENGINES ?? 'pglite,postgres').split(',') as Array<'postgres' | 'pglite'>;
const WAYS = (process.env.WAYS ?? 'shipped,pending-list').split(',');
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** A store slower than this is a stall (the merge of a full pending list takes ~100 ms). */
const STALL_MS = 50;
/** Rare-word searches after the stores (through the real search service). */
const SEARCHES = Number(process.env.SEARCHES ?? 30);

const SENDER = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ann@bench.test',
  firstName: 'Ann',
  lastName: 'Bench',
};
const WORKSPACE = '00000000-0000-4000-9000-000000000001';
const channelId = (i: number) => `00000000-0000-4000-a000-${String(i + 1).padStart(12, '0')}`;

async function seed(database: Database, way: string) {
  const { db } = database;
  await db.execute(sql`insert into users (id, email, first_name, last_name)
    values (${SENDER.id}, ${SENDER.email}, ${SENDER.firstName}, ${SENDER.lastName})`);
  await db.execute(
    sql`insert into workspaces (id, name, description) values (${WORKSPACE}, 'bench', 'bench')`,
  );
  await db.execute(sql`insert into workspace_members (workspace_id, user_id, role)
    values (${WORKSPACE}, ${SENDER.id}, 'admin')`);
  for (let i = 0; i < CHANNELS; i++) {
    await db.execute(sql`insert into channels (id, workspace_id, name, description, is_private)
      values (${channelId(i)}, ${WORKSPACE}, ${`channel-${i}`}, 'bench', false)`);
  }
  if (way === 'pending-list') {
    await db.execute(sql`alter index channel_messages_search_idx set (fastupdate = on)`);
  } else if (way !== 'shipped') {
    throw new Error(`unknown way ${way}: shipped or pending-list`);
  }
}

/** Message `i`: 6–20 words, each the vocabulary's word number floor(V^u) (density ~ 1/rank). */
function messages(vocab: string[]) {
  let seed = 7;
  const rnd = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  return (i: number) =>
    Array.from({ length: 6 + (i % 15) }, () => vocab[Math.floor(vocab.length ** rnd()) - 1] ?? 'the').join(
      ' ',
    );
}

async function run(engine: 'postgres' | 'pglite', way: string, vocab: string[]) {
  const { database, cleanup } = await openBenchDatabase(engine, SERVER_URL, 'cohort_bench_store');
  try {
    await seed(database, way);
    const ctx = benchContext(database);
    const content = messages(vocab);
    const times: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < STORES; i++) {
      const target = { channelId: channelId(i % CHANNELS), workspaceId: WORKSPACE };
      const t = performance.now();
      const stored = await postChannelMessage(ctx, SENDER, target, {
        clientId: randomUUID(),
        content: content(i),
      });
      times.push(performance.now() - t);
      if (!stored?.created) throw new Error(`store ${i} refused`);
    }
    const seconds = (performance.now() - t0) / 1000;
    // Then searches for rare words: with fastupdate on, each also reads whatever the list holds.
    const searches: number[] = [];
    for (let k = 0; k < SEARCHES; k++) {
      const parsed = parseSearchQuery(vocab[vocab.length - 1 - k] ?? 'x');
      if (!parsed.ok) throw new Error(parsed.message);
      const t = performance.now();
      await searchMessages(ctx, SENDER, parsed.query, { limit: 20 });
      searches.push(performance.now() - t);
    }
    const [size] = (
      (await database.db.execute(
        sql`select pg_relation_size('channel_messages_search_idx')::text as gin`,
      )) as unknown as { rows: Array<{ gin: string }> }
    ).rows;
    const sorted = [...times].sort((a, b) => a - b);
    const r = (x: number) => Math.round(x * 100) / 100;
    return {
      engine,
      way,
      stores: STORES,
      mean_ms: r((seconds * 1000) / STORES),
      p50_ms: r(percentile(sorted, 50)),
      p99_ms: r(percentile(sorted, 99)),
      p999_ms: r(percentile(sorted, 99.9)),
      max_ms: r(sorted.at(-1) ?? 0),
      stalls_over_50ms: times.filter((x) => x > STALL_MS).length,
      search_p50_ms: r(
        percentile(
          [...searches].sort((a, b) => a - b),
          50,
        ),
      ),
      gin_MiB: r(Number(size?.gin ?? 0) / 2 ** 20),
    };
  } finally {
    await cleanup();
  }
}

if (ENGINES.includes('postgres') && !(await postgresReachable(SERVER_URL))) {
  console.log(`PostgreSQL not reachable at ${SERVER_URL}: its case is skipped.`);
  ENGINES.splice(ENGINES.indexOf('postgres'), 1);
}
const vocab = vocabulary();
const rows: Record<string, string | number>[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const engine of ENGINES) {
    // Alternate which way goes first, so neither always runs on a warmer machine.
    const ways = round % 2 === 0 ? WAYS : [...WAYS].reverse();
    for (const way of ways) {
      console.log(`round ${round + 1}: ${engine}, ${way}: ${STORES} stores…`);
      rows.push(await run(engine, way, vocab));
    }
  }
}
report('message-store', rows);

// Each engine's medians, as shipped against the pending list.
const ratios: Record<string, string | number>[] = [];
for (const engine of ENGINES) {
  type Key = 'mean_ms' | 'p999_ms' | 'max_ms' | 'search_p50_ms' | 'gin_MiB';
  const of = (way: string, key: Key) =>
    median(rows.filter((r) => r.engine === engine && r.way === way).map((r) => Number(r[key])));
  const ratio = (key: Key) => Math.round((of('shipped', key) / of('pending-list', key)) * 100) / 100;
  if (WAYS.includes('shipped') && WAYS.includes('pending-list')) {
    ratios.push({
      engine,
      'shipped / pending-list': `median of ${ROUNDS}`,
      mean: ratio('mean_ms'),
      p999: ratio('p999_ms'),
      max: ratio('max_ms'),
      search_p50: ratio('search_p50_ms'),
      gin_size: ratio('gin_MiB'),
    });
  }
}
if (ratios.length > 0) report('message-store-ratios', ratios);
