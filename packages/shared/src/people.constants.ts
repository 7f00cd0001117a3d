// What people.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). people.ts re-exports all of it.

export const PEOPLE_QUERY_MAX_LENGTH = 100;

export const PEOPLE_DEFAULT_LIMIT = 10;

export const PEOPLE_MAX_LIMIT = 25;

export const PEOPLE_MESSAGES = {
  queryTooLong: `Search is too long (${PEOPLE_QUERY_MAX_LENGTH} characters at most)`,
  invalidLimit: `limit must be a whole number from 1 to ${PEOPLE_MAX_LIMIT}`,
  notMessageable: 'You can only message people who share a workspace with you',
} as const;
