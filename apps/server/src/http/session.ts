import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { sessions, users } from '../db/schema.ts';
import { unauthorized } from './errors.ts';

export const SESSION_COOKIE = 'cohort_session';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A browser-session login ends after a day without use; "remember me" after SESSION_TTL_DAYS. */
const SHORT_IDLE_MS = DAY_MS;
/** Sliding expiry is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  sessionId: string;
  /** The address was proved (a mailed link or Google): only then may it accept invitations. */
  emailVerified: boolean;
  /** Two-factor sign-in (TOTP) is on for the account. */
  twoFactorEnabled: boolean;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const idleMs = (ctx: AppContext, remember: boolean) =>
  remember ? ctx.config.SESSION_TTL_DAYS * DAY_MS : SHORT_IDLE_MS;

/** Where a sign-in came from, kept with the session so its owner can tell sessions apart. */
export interface SessionDevice {
  userAgent: string | null;
  ip: string | null;
}

/** A user agent is the client's free text: kept bounded so a session row stays small. */
const USER_AGENT_MAX = 512;

export function deviceOf(request: FastifyRequest): SessionDevice {
  const userAgent = request.headers['user-agent'];
  return { userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null, ip: request.ip || null };
}

export async function createSession(
  ctx: AppContext,
  userId: string,
  remember: boolean,
  device: SessionDevice = { userAgent: null, ip: null },
) {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await ctx.db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    remember,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + idleMs(ctx, remember)),
    userAgent: device.userAgent,
    ip: device.ip,
  });
  return token;
}

/** The live session of a token hash with its user: every HTTP request and socket connection asks. */
const sessionByTokenHash = preparedQuery('session_by_token_hash', (db) =>
  db
    .select({
      sessionId: sessions.id,
      remember: sessions.remember,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      emailVerifiedAt: users.emailVerifiedAt,
      totpEnabledAt: users.totpEnabledAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1),
);

/** Resolves a token (cookie or Bearer) to its user, sliding the expiry; null when invalid. */
export async function resolveSession(ctx: AppContext, token: string): Promise<SessionUser | null> {
  const now = ctx.now();
  const [row] = await sessionByTokenHash(ctx.db).execute({
    tokenHash: hashToken(token),
    now: now.toISOString(),
  });
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await ctx.db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + idleMs(ctx, row.remember)) })
      .where(eq(sessions.id, row.sessionId));
  }
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    sessionId: row.sessionId,
    emailVerified: row.emailVerifiedAt !== null,
    twoFactorEnabled: row.totpEnabledAt !== null,
  };
}

/**
 * Publishes a revoked session on the app's bus, so the real-time layer can close its sockets at once
 * (other nodes notice within their periodic session check).
 */
function announceRevoked(ctx: AppContext, sessionId: string) {
  void ctx.bus.emit('sessionRevoked', { sessionId });
}

export async function revokeSession(ctx: AppContext, sessionId: string) {
  await ctx.db.update(sessions).set({ revokedAt: ctx.now() }).where(eq(sessions.id, sessionId));
  announceRevoked(ctx, sessionId);
}

/**
 * Revokes the session `sessionId` only if it is a live session of `userId` (closing its sockets);
 * false when there is no such session, so someone else's id is answered like an unknown one.
 */
export async function revokeOwnSession(ctx: AppContext, userId: string, sessionId: string) {
  const [revoked] = await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (revoked) announceRevoked(ctx, revoked.id);
  return revoked !== undefined;
}

/** The user's sessions that still work (not revoked, not expired), most recently active first. */
export async function liveSessionsOf(ctx: AppContext, userId: string) {
  return ctx.db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, ctx.now())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt), asc(sessions.id));
}

/** Revokes every live session of the user but `keepSessionId` (password change), closing their sockets. */
export async function revokeOtherSessions(ctx: AppContext, userId: string, keepSessionId: string) {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  for (const { id } of revoked) announceRevoked(ctx, id);
  return revoked.length;
}

/**
 * Revokes every live session of the user (password reset, an unverified account taken over by its
 * address's Google identity), closing their sockets.
 */
export async function revokeAllSessions(ctx: AppContext, userId: string) {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  for (const { id } of revoked) announceRevoked(ctx, id);
  return revoked.length;
}

/** The token a request carries: `Authorization: Bearer …` first, then the session cookie. */
export function tokenFromHeaders(authorization: string | undefined, cookieToken: string | undefined) {
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return bearer ?? cookieToken ?? null;
}

const resolved = new WeakMap<FastifyRequest, SessionUser | null>();

export async function currentUser(ctx: AppContext, request: FastifyRequest): Promise<SessionUser | null> {
  if (resolved.has(request)) return resolved.get(request) ?? null;
  const token = tokenFromHeaders(request.headers.authorization, request.cookies[SESSION_COOKIE]);
  const user = token ? await resolveSession(ctx, token) : null;
  resolved.set(request, user);
  return user;
}

/** First step of every authenticated route: the user comes from the session, never from the body. */
export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<SessionUser> {
  const user = await currentUser(ctx, request);
  if (!user) throw unauthorized();
  return user;
}

export function setSessionCookie(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  remember: boolean,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || ctx.config.PUBLIC_URL?.startsWith('https:') === true,
    // Without "remember me" the cookie lives as long as the browser session.
    maxAge: remember ? ctx.config.SESSION_TTL_DAYS * 24 * 60 * 60 : undefined,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
