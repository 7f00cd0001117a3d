/** PostgreSQL's unique_violation, whether raised by pg or PGlite and however Drizzle wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

type ErrorChain = { code?: string; message?: string; cause?: unknown } | undefined;
const chain = function* (err: unknown) {
  for (let e = err as ErrorChain, depth = 0; e && depth < 10; e = e.cause as ErrorChain, depth++) yield e;
};

// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, restart).
const UNAVAILABLE_CODES = /^(08\w{3}|57P0[1-3]|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTCONN)$/;
// What node-postgres says when the connection dies under a query, or no connection comes in time.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended unexpectedly/;

/**
 * The database cannot be reached right now (restart, failover, network cut): a retry may succeed,
 * so callers answer "try again" (503, or a transient socket refusal) instead of a server error.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code && UNAVAILABLE_CODES.test(e.code)) return true;
    if (e.message && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** Out of disk space: PostgreSQL/PGlite's disk_full (53100) or a file write's ENOSPC/EDQUOT. */
export function isDiskFull(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code === '53100' || e.code === 'ENOSPC' || e.code === 'EDQUOT') return true;
  }
  return false;
}

/**
 * SQLSTATE class 22 (data exception): a value the database refused as out of range or malformed (a
 * date past year 294276, a number too large, a NUL byte in text). Always caused by input, so it is the
 * caller's error (400), never a server error.
 */
export function isDataException(err: unknown): boolean {
  for (const e of chain(err)) {
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}
