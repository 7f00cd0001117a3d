import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import * as schema from '../../src/db/schema.ts';
import type { TestApp } from '../test-app.ts';

/** Shared by the fuzz suites: seeds, junk generators and the "nothing changed" checksum. */

/** Fixed by default so CI is reproducible; FUZZ_SEED=<n> replays (fast-check prints the seed of a failure). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Generated cases per route/event and identity; FUZZ_RUNS raises it for a long local run. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 5);

/**
 * Tables a refused request may legitimately write to: the counters that make refusals count
 * (failed logins, rate-limit hits). Every other table must keep its row count on a 4xx.
 */
const REFUSAL_COUNTERS = new Set(['login_failures', 'rate_limit_hits']);

const tableNames = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table))
  .filter((name) => !REFUSAL_COUNTERS.has(name));

/** Row counts of every table of the schema (new tables included automatically), in one query. */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const columns = tableNames.map((name) => `(select count(*) from "${name}")::int as "${name}"`).join(', ');
  const result = (await t.ctx.db.execute(sql.raw(`select ${columns}`))) as unknown as
    | { rows: Record<string, number>[] }
    | Record<string, number>[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0] ?? {};
}

export const nastyStrings = [
  '',
  ' ',
  '\u0000',
  '../../etc/passwd',
  '%00',
  "' OR '1'='1",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  '\u202e\u0301\ud83d\ude00',
  '\ud800',
  'NaN',
  '-1',
  '1e309',
  'x'.repeat(10_000),
  // Text PostgreSQL cannot store inside otherwise ordinary values.
  'ok\u0000',
  'caf\u00e9 \udc00',
  // Dates and cursors beyond PostgreSQL's range or not what they claim.
  '0000-01-01',
  '99999-12-31',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  'eyJ0IjoiOTk5OTktMDEtMDEiLCJpZCI6IngifQ',
  'x before:0000-01-01',
  'x during:294277',
  'x after:2024-02-30',
];

/** A body whose every known field holds the same value: gets a nasty string past "field missing". */
export const uniformObject = (knownKeys: string[]) =>
  fc
    .constantFrom(...nastyStrings)
    .map((value) => Object.fromEntries(knownKeys.map((key) => [key, value])) as Record<string, unknown>);

/** Any junk JSON value: wrong types, unicode, nasty strings, pollution keys, nesting. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...nastyStrings, null, true, false, 0, -1, 2 ** 53, 1.5, [], {}),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'a'), fc.jsonValue()),
);

/** Junk for an object body: known field names (from the route's schema) with junk values, plus extra keys. */
export const junkObject = (knownKeys: string[]) =>
  fc.dictionary(
    knownKeys.length > 0 ? fc.oneof(fc.constantFrom(...knownKeys), fc.string()) : fc.string(),
    junkValue,
    { maxKeys: 8 },
  );

/** `[[[[…]]]]` and `{"a":{"a":…}}` as raw JSON text, deep enough to break naive recursion. */
export const deeplyNested = (depth: number) => [
  `${'['.repeat(depth)}${']'.repeat(depth)}`,
  `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
];

export const pollutionBodies = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"name":"x","__proto__":{"isAdmin":true,"role":"admin"}}',
];
