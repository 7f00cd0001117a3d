import { type Column, type SQL, sql } from 'drizzle-orm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `column = any($1::uuid[])`: the whole list as ONE bind parameter. drizzle's `inArray` makes a
 * parameter per id and builds and types each on every call; on a 50-message history page (reactions
 * and files of every message) that was the largest share of the server's CPU in bench/load.ts's
 * profile. Ids are checked to be UUIDs, so the array literal cannot be bent.
 */
export function anyUuid(column: Column, ids: readonly string[]): SQL {
  for (const id of ids) {
    if (!UUID.test(id)) throw new Error(`anyUuid: not a UUID: ${JSON.stringify(id)}`);
  }
  return sql`${column} = any(${`{${ids.join(',')}}`}::uuid[])`;
}
