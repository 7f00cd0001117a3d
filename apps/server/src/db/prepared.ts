import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** Every name given so far: PostgreSQL refuses one name for two statements on a connection. */
const names = new Set<string>();

/**
 * A query built once per database, then run with `sql.placeholder` values. drizzle otherwise builds
 * a statement's SQL text and result mapping again on every call: on a busy node that was about 45 %
 * of everything allocated (docs/performance.md, "Session 18"), and the major collections it drove
 * are what failed the two-node steps. `name` also makes it a server-side prepared statement on
 * PostgreSQL (parsed and planned once per connection) and on PGlite's thread (`preparedNameOf`); a
 * name used twice throws when the module loads. Only for hot queries whose shape never depends on the call (decision 0012).
 */
export function preparedQuery<Q extends { getQuery(): { sql: string } }>(
  name: string,
  build: (db: Db) => { prepare(name: string): Q },
): (db: Db) => Q {
  if (names.has(name)) throw new Error(`preparedQuery: the name ${name} is already used`);
  names.add(name);
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db).prepare(name);
      built.set(db, query);
      namesOfTexts.set(query.getQuery().sql, name);
    }
    return query;
  };
}

/** The name each prepared statement's text goes by. */
const namesOfTexts = new Map<string, string>();

/**
 * The name a statement's text was prepared under, if it was. drizzle's PGlite driver drops the name,
 * so the embedded database's thread (db/pglite-thread.ts) looks it up here to prepare it too.
 */
export const preparedNameOf = (text: string): string | undefined => namesOfTexts.get(text);

const dialect = new PgDialect();

/**
 * Hand-written SQL (what `db.execute(sql`…`)` runs), prepared the same way: for hot writes that
 * drizzle's builders cannot express, such as the one statement that stores a message. Planning
 * that statement cost PostgreSQL as much as running it (docs/performance.md, "Session 20").
 * `execute(values)` answers what `db.execute` answers (`rowsOf` reads it).
 */
export function preparedSql(name: string, build: () => SQL) {
  return preparedQuery(name, (db) => ({
    prepare: (as: string) => db._.session.prepareQuery(dialect.sqlToQuery(build()), undefined, as, false),
  }));
}
