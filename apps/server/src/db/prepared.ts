import type { Db } from './client.ts';

/**
 * A query built once per database, then run with `sql.placeholder` values. drizzle otherwise builds
 * a statement's SQL text and result mapping again on every call: on a busy node that was about 45 %
 * of everything allocated (docs/performance.md, "Session 18"), and the major collections it drove
 * are what failed the two-node steps. The name given to `.prepare(name)` also makes it a
 * server-side prepared statement on PostgreSQL (parsed and planned once per connection); it must be
 * unique. Only for hot queries whose shape never depends on the call.
 */
export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
