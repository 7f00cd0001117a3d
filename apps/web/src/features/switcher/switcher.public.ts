// The switcher feature's public entry: other features import only what is listed here (biome.json).
import { recordRecent } from './recent.ts';

/** A full search ran (the search page): its query goes to the front of the user's recent searches. */
export const recordRecentSearch = (userId: string, q: string) => recordRecent(userId, 'searches', q);
