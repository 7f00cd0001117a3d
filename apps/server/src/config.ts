import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const splitList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Every environment variable the server reads, parsed once. All are optional. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('localhost'),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  /** Redis stream (and pub/sub prefix) the Socket.IO adapter uses; nodes of one deployment share it. */
  REDIS_STREAM: z.string().trim().min(1).default('cohort'),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: optionalString,
  /** Comma-separated STUN URLs handed to browsers by GET /api/calls/ice-servers. */
  STUN_URLS: z.string().default('stun:stun.l.google.com:19302').transform(splitList),
  /** Comma-separated TURN URLs; TURN is offered only when TURN_SECRET is set too. */
  TURN_URLS: optionalString.transform((v) => (v === undefined ? [] : splitList(v))),
  /** coturn's `static-auth-secret` (use-auth-secret): credentials are derived, never stored. */
  TURN_SECRET: optionalString,
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
