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
  /** How long a user whose last tab closed keeps their presence (a reload must not flap to offline). */
  PRESENCE_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** How long a 1:1 call rings before it becomes a missed call (docs/calls.md). */
  CALL_RING_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** With Redis: a node silent this long is dead and its users' tabs no longer count (heartbeat: a third). */
  PRESENCE_NODE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Turns on GET /metrics (Prometheus), which then requires `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: optionalString,
  /** Comma-separated STUN URLs handed to browsers by GET /api/calls/ice-servers. */
  STUN_URLS: z.string().default('stun:stun.l.google.com:19302').transform(splitList),
  /** Comma-separated TURN URLs; TURN is offered only when TURN_SECRET is set too. */
  TURN_URLS: optionalString.transform((v) => (v === undefined ? [] : splitList(v))),
  /** coturn's `static-auth-secret` (use-auth-secret): credentials are derived, never stored. */
  TURN_SECRET: optionalString,
  /**
   * Janus (issue 23): with JANUS_URL (its WebSocket API, as browsers reach it), JANUS_ADMIN_URL (its
   * admin WebSocket API, as this server reaches it) and JANUS_ADMIN_SECRET, meetings run on a Janus
   * VideoRoom of up to JANUS_ROOM_MAX people instead of the mesh of six (docs/calls.md).
   */
  JANUS_URL: optionalString.pipe(z.url().optional()),
  JANUS_ADMIN_URL: optionalString.pipe(z.url().optional()),
  JANUS_ADMIN_SECRET: optionalString,
  /** The VideoRoom plugin's `admin_key`, when its configuration sets one (recommended). */
  JANUS_ROOM_ADMIN_KEY: optionalString,
  JANUS_ROOM_MAX: z.coerce.number().int().min(2).max(100).default(25),
  /** An OpenAI-compatible API (OpenAI, Ollama, vLLM, llama.cpp…) for channel summaries; unset: the built-in summarizer. */
  OPENAI_BASE_URL: optionalString.pipe(z.url().optional()),
  OPENAI_API_KEY: optionalString,
  SUMMARY_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  /** How long the model may take for one summary (all its calls) before the built-in summarizer answers. */
  SUMMARY_LLM_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
  /** Characters of conversation per model call; longer windows are summarized in parts, then combined. */
  SUMMARY_CONTEXT_CHARS: z.coerce.number().int().min(1000).max(2_000_000).default(24_000),
  /** GitHub's REST API (or a GitHub Enterprise one, e.g. https://github.example.com/api/v3). */
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /**
   * GitHub's web pages (links to pull requests and issues must point there); derived from
   * GITHUB_API_URL when unset: api.github.com → https://github.com, an Enterprise API → its own host.
   */
  GITHUB_WEB_URL: optionalString.pipe(z.url().optional()),
  /** Optional: public repositories sync without it; private ones and a higher rate limit need it. */
  GITHUB_TOKEN: optionalString,
  /** Linked repositories are re-synced in the background this often. */
  GITHUB_SYNC_MINUTES: z.coerce.number().min(1).max(1440).default(10),
  /** Optional: enables POST /api/github/webhook, verified with X-Hub-Signature-256. */
  GITHUB_WEBHOOK_SECRET: optionalString,
  /** Where mail is sent (smtp://user:pass@host:587, smtps://…); unset: .eml files in DATA_DIR/outbox. */
  SMTP_URL: optionalString.pipe(z.url().optional()),
  /** The From of every mail Cohort sends. */
  MAIL_FROM: z.string().trim().min(3).default('Cohort <no-reply@localhost>'),
  /** Operators (comma-separated addresses): their verified accounts may read GET /api/admin/mail. */
  ADMIN_EMAILS: optionalString.transform((v) =>
    v === undefined ? [] : splitList(v).map((e) => e.toLowerCase()),
  ),
  /** Shared files go to this S3-compatible bucket when set (else to DATA_DIR/files on local disk). */
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  /** For S3-compatible services (MinIO, R2, ...): their endpoint URL. Empty: AWS itself. */
  S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** `true` for services that only speak path-style URLs (most self-hosted ones). */
  /** Invitation e-mails one person may cause per hour, over all their workspaces (anti-spam). */
  INVITATIONS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(250),
  /** What one workspace's files may take in all (a person's direct-message files count on their own). */
  STORAGE_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000_000).default(5120),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const janus = [parsed.data.JANUS_URL, parsed.data.JANUS_ADMIN_URL, parsed.data.JANUS_ADMIN_SECRET];
  if (janus.some((v) => v !== undefined) && janus.some((v) => v === undefined)) {
    throw new Error('Invalid configuration: JANUS_URL, JANUS_ADMIN_URL and JANUS_ADMIN_SECRET go together');
  }
  return parsed.data;
}
