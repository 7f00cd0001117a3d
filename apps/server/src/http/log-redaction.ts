import type { FastifyRequest } from 'fastify';

/**
 * What the server's log may contain. Failed queries carry their bind parameters (password hashes,
 * session-token hashes, message text, e-mail addresses) in the error message, its stack, `params`
 * and the driver's `detail`; pino's default error serializer would print all of them. Errors are
 * therefore logged as type, SQLSTATE, constraint and the SQL text with placeholders only, and request
 * URLs lose the values of query parameters that carry secrets.
 */

const SECRET_QUERY_KEYS = /^(token|challenge|code|secret|password|credential)$/i;
/** Fields that must never be printed, wherever a log call puts them (one or two levels deep). */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'token',
  'tokenHash',
  'totpSecret',
  'secret',
  'challenge',
  'credential',
  'content',
  'html',
];

export const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]),
];

const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
const DB_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

interface SafeError {
  type: string;
  message: string;
  stack: string;
  query?: string;
  cause?: SafeError;
  [field: string]: unknown;
}

/** The message without any value: SQL text keeps its placeholders; quoted values are elided. */
function safeMessage(err: Error & { query?: unknown }): string {
  if (typeof err.query === 'string') return `Failed query: ${err.query}`;
  return err.message.replace(QUOTED, '"…"').slice(0, 500);
}

export function serializeError(err: unknown, depth = 0): SafeError {
  if (!(err instanceof Error)) return { type: typeof err, message: 'non-error value thrown', stack: '' };
  const e = err as Error & Record<string, unknown>;
  const message = safeMessage(e);
  const frames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const out: SafeError = {
    type: e.constructor?.name || e.name,
    message,
    stack: [`${e.name}: ${message}`, ...frames].join('\n'),
  };
  if (typeof e.query === 'string') out.query = e.query;
  for (const field of DB_FIELDS) {
    const value = e[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** The request URL with the values of secret-bearing query parameters replaced. */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_QUERY_KEYS.test(decodeSafely(key)) ? `${key}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

function decodeSafely(s: string) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Fastify hands its request object to the `req` serializer. */
function serializeRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'host' | 'ip'>) {
  return {
    method: request.method,
    url: safeUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** pino options for the server's logger (Fastify passes them through). */
export const logOptions = {
  redact: { paths: logRedactPaths, censor: '[redacted]' },
  serializers: { err: serializeError, error: serializeError, req: serializeRequest },
};
