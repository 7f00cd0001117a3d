import { buildPgliteTemplate } from '../src/db/client.ts';

/** Every test file opens its own PGlite; building the migrated template once makes each open fast. */
export default async function setup() {
  await buildPgliteTemplate();
}
