// Search over 1,000,000 messages in 1,000 channels: p50/p95 of the real search service (the same
// function GET /api/search calls) on PostgreSQL and on PGlite, and the size of the GIN index.
// Knobs: MESSAGES (1000000), CHANNELS (1000), RUNS (per query, 20), ENGINES (postgres,pglite), ANALYZE (1),
// DATABASE_URL (postgres://postgres@127.0.0.1:5432/test: a bench database is created and dropped there).
import { parseSearchQuery } from '@cohort/shared/search';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { analyzeGrownTables } from '../apps/server/src/db/pglite-statistics.ts';
import { searchMessages } from '../apps/server/src/features/search/search.service.ts';
import { benchContext, openBenchDatabase, vocabulary } from './database.ts';
import { report } from './lib.ts';

const MESSAGES = Number(process.env.MESSAGES ?? 1_000_000);
const CHANNELS = Number(process.env.CHANNELS ?? 1000);
const WORKSPACES = 10;
const USERS = 200;
const RUNS = Number(process.env.RUNS ?? 20);
const ENGINES = (process.env.ENGINES ?? 'postgres,pglite').split(',') as Array<'postgres' | 'pglite'>;
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 100_000;
/** Gather planner statistics after the load (ANALYZE=0: none). */
const ANALYZE = process.env.ANALYZE !== '0';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function generate(database: Database, vocab: string[]) {
  const db = database.db;
  const t0 = performance.now();
  await db.execute(sql`
    insert into users (id, email, first_name, last_name)
    select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'user' || g || '@bench.test',
      'User' || g, 'Bench'
    from generate_series(1, ${USERS}) g`);
  await db.execute(sql`
    insert into workspaces (id, name, description)
    select ('00000000-0000-4000-9000-' || lpad(g::text, 12, '0'))::uuid, 'bench-' || g, 'bench'
    from generate_series(1, ${WORKSPACES}) g`);
  // Everyone is in every workspace: the searcher (user 1) can read the most it could.
  await db.execute(sql`
    insert into workspace_members (workspace_id, user_id, role)
    select w.id, u.id, case when u.email = 'user1@bench.test' then 'admin' else 'viewer' end
    from workspaces w cross join users u`);
  // One channel in ten is private; user 1 is listed in half of those.
  await db.execute(sql`
    insert into channels (id, workspace_id, name, description, is_private)
    select ('00000000-0000-4000-a000-' || lpad(g::text, 12, '0'))::uuid,
      ('00000000-0000-4000-9000-' || lpad((1 + g % ${WORKSPACES})::text, 12, '0'))::uuid,
      'channel-' || g, 'bench channel', g % 10 = 0
    from generate_series(1, ${CHANNELS}) g`);
  await db.execute(sql`
    insert into channel_members (channel_id, user_id)
    select c.id, '00000000-0000-4000-8000-000000000001'::uuid from channels c
    where c.is_private and (substr(c.name, 9)::int / 10) % 2 = 0`);
  // Building the GIN index once after the load is much faster than maintaining it row by row.
  await db.execute(sql`drop index if exists channel_messages_search_idx`);
  const words = `{${vocab.join(',')}}`;
  for (let from = 1; from <= MESSAGES; from += BATCH) {
    const to = Math.min(MESSAGES, from + BATCH - 1);
    // Each message: 6–20 words, each the vocabulary's word number floor(V^random) (density ~ 1/rank);
    // messages spread over a year, oldest first, round-robin over the channels.
    await db.execute(sql`
      insert into channel_messages (channel_id, seq, sender_id, content, client_id, created_at, rev)
      select ('00000000-0000-4000-a000-' || lpad((1 + (g - 1) % ${CHANNELS})::text, 12, '0'))::uuid,
        (g - 1) / ${CHANNELS} + 1,
        ('00000000-0000-4000-8000-' || lpad((1 + (g::bigint * 7919) % ${USERS})::text, 12, '0'))::uuid,
        (select string_agg(v.w[floor(power(${vocab.length}::float8, random()))::int], ' ')
           from (select ${words}::text[] as w) v, generate_series(1, 6 + (g % 15)) n where g > 0),
        gen_random_uuid(),
        now() - interval '365 days' + (g * interval '365 days' / ${MESSAGES}),
        (g - 1) / ${CHANNELS} + 1
      from generate_series(${from}::int, ${to}::int) g`);
    process.stdout.write(
      `  ${to.toLocaleString()} messages (${Math.round((performance.now() - t0) / 1000)} s)\n`,
    );
  }
  await db.execute(sql`update channels c set last_seq = (select count(*) from channel_messages m where m.channel_id = c.id),
    last_rev = (select count(*) from channel_messages m where m.channel_id = c.id)`);
  const t1 = performance.now();
  // As migration 0017 leaves it: no pending list.
  await db.execute(
    sql`create index channel_messages_search_idx on channel_messages using gin (search) with (fastupdate = off)`,
  );
  const indexMs = performance.now() - t1;
  // Statistics as a running server would have them: on PostgreSQL its autovacuum analyzes, on PGlite
  // the server's own pass does (db/pglite-statistics.ts). ANALYZE=0: none, as before either ran.
  const t2 = performance.now();
  if (ANALYZE && database.kind === 'pglite') await analyzeGrownTables(db);
  else if (ANALYZE) await db.execute(sql`analyze`);
  const analyzeMs = performance.now() - t2;
  const sizes = rowsOf<{ gin: string; heap: string }>(
    await db.execute(sql`select pg_relation_size('channel_messages_search_idx')::text as gin,
      pg_total_relation_size('channel_messages')::text as heap`),
  )[0];
  return {
    loadSeconds: Math.round((performance.now() - t0) / 1000),
    indexSeconds: Math.round(indexMs / 1000),
    analyzeMs: Math.round(analyzeMs),
    ginMiB: Math.round(Number(sizes?.gin ?? 0) / 2 ** 20),
    tableMiB: Math.round(Number(sizes?.heap ?? 0) / 2 ** 20),
  };
}

function queries(vocab: string[]) {
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  return [
    { kind: 'common word', q: vocab[3] ?? 'and' },
    { kind: 'medium word', q: vocab[150] ?? 'x' },
    { kind: 'rare word', q: vocab[4200] ?? 'x' },
    { kind: 'two words', q: `${vocab[20]} ${vocab[300]}` },
    { kind: 'prefix (3 letters)', q: (vocab[400] ?? 'abc').slice(0, 3) },
    { kind: 'word in:channel', q: `${vocab[40]} in:#channel-17` },
    { kind: 'word from:user', q: `${vocab[60]} from:user7@bench.test` },
    { kind: 'word after:date', q: `${vocab[80]} after:${monthAgo}` },
    { kind: 'word during:day', q: `${vocab[10]} during:${today}` },
    { kind: 'no match', q: 'qqqzzzxxx' },
  ];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const ms = (x: number) => Math.round(x * 10) / 10;

async function benchEngine(engine: 'postgres' | 'pglite', vocab: string[]) {
  const { database, cleanup } = await openBenchDatabase(engine, SERVER_URL, 'cohort_bench_search');
  try {
    console.log(`${engine}: generating ${MESSAGES.toLocaleString()} messages in ${CHANNELS} channels…`);
    const gen = await generate(database, vocab);
    const ctx = benchContext(database);
    const caller = { id: '00000000-0000-4000-8000-000000000001' };
    const rows: Record<string, string | number>[] = [];
    const all: number[] = [];
    for (const { kind, q } of queries(vocab)) {
      const parsed = parseSearchQuery(q);
      if (!parsed.ok) throw new Error(parsed.message);
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < RUNS + 2; i++) {
        const t0 = performance.now();
        const page = await searchMessages(ctx, caller, parsed.query, { limit: 20 });
        const dt = performance.now() - t0;
        hits = page.hits.length;
        if (i >= 2) times.push(dt); // two warm-up runs
      }
      all.push(...times);
      rows.push({ engine, query: kind, q, hits, p50_ms: ms(pct(times, 50)), p95_ms: ms(pct(times, 95)) });
    }
    rows.push({
      engine,
      query: 'ALL',
      q: `${all.length} searches`,
      hits: '',
      p50_ms: ms(pct(all, 50)),
      p95_ms: ms(pct(all, 95)),
      target_p95_ms: engine === 'postgres' ? 100 : 500,
      gin_index_MiB: gen.ginMiB,
      table_MiB: gen.tableMiB,
      load_s: gen.loadSeconds,
      gin_build_s: gen.indexSeconds,
      analyze_ms: gen.analyzeMs,
    });
    return rows;
  } finally {
    await cleanup();
  }
}

const vocab = vocabulary();
const rows: Record<string, string | number>[] = [];
for (const engine of ENGINES) {
  rows.push(...(await benchEngine(engine, vocab)));
  report('search', rows);
}
