import { type Column, type SQL, sql } from 'drizzle-orm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A list of ids as ONE `uuid[]` bind parameter. drizzle's `inArray` makes a parameter per id and
 * builds and types each on every call; on a 50-message history page (reactions and files of every
 * message) that was the largest share of the server's CPU in bench/load.ts's profile. Ids are
 * checked to be UUIDs, so the array literal cannot be bent. For ids the server already holds (rows,
 * sockets), not request input: a bad id is a bug here, not a 400.
 */
export function uuidArray(ids: readonly string[]): SQL {
  return sql`${uuidArrayLiteral(ids)}::uuid[]`;
}

/** The `{id,id}` text of checked UUIDs: the value of a `uuid[]` parameter (see `uuidArray`). */
export function uuidArrayLiteral(ids: readonly string[]): string {
  for (const id of ids) {
    if (!UUID.test(id)) throw new Error(`uuidArray: not a UUID: ${JSON.stringify(id)}`);
  }
  return `{${ids.join(',')}}`;
}

/** `column = any($1::uuid[])`: `inArray(column, ids)` with one bind parameter (see `uuidArray`). */
export function anyUuid(column: Column, ids: readonly string[]): SQL {
  return sql`${column} = any(${uuidArray(ids)})`;
}

/**
 * `column = any($n::uuid[])` in a prepared query (db/prepared.ts): the placeholder `name` takes
 * `uuidArrayLiteral(ids)`.
 */
export function anyUuidPlaceholder(column: Column, name: string): SQL {
  return sql`${column} = any(${sql.placeholder(name)}::uuid[])`;
}
