import { createHmac, randomUUID } from 'node:crypto';
import { TURN_CREDENTIAL_TTL_SECONDS } from '@cohort/shared/calls';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import { users, workspaceMembers } from '../../db/schema.ts';

export interface Party {
  id: string;
  email: string;
}

async function findUserByEmail(ctx: AppContext, email: string): Promise<Party | null> {
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

/**
 * The person a caller may ring: someone with an account who shares a workspace with the caller.
 * Unknown e-mails, oneself and strangers all give null, so the caller learns nothing more.
 */
export async function findCallee(ctx: AppContext, caller: Party, email: string): Promise<Party | null> {
  const callee = await findUserByEmail(ctx, email);
  if (!callee || callee.id === caller.id) return null;
  const other = alias(workspaceMembers, 'other');
  const [shared] = await ctx.db
    .select({ one: sql<number>`1` })
    .from(workspaceMembers)
    .innerJoin(other, and(eq(other.workspaceId, workspaceMembers.workspaceId), eq(other.userId, callee.id)))
    .where(eq(workspaceMembers.userId, caller.id))
    .limit(1);
  return shared ? callee : null;
}

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/**
 * coturn's `use-auth-secret` (TURN REST API) credentials: the username is `expiry:userId` and the
 * password the base64 HMAC-SHA1 of the username keyed with the shared secret; coturn recomputes it,
 * so nothing is stored and nothing is fixed.
 */
export function turnCredentials(secret: string, userId: string, now: Date) {
  const expiry = Math.floor(now.getTime() / 1000) + TURN_CREDENTIAL_TTL_SECONDS;
  const username = `${expiry}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

export function iceServersFor(ctx: AppContext, userId: string): IceServer[] {
  const { STUN_URLS, TURN_URLS, TURN_SECRET } = ctx.config;
  const servers: IceServer[] = [];
  if (STUN_URLS.length > 0) servers.push({ urls: STUN_URLS });
  if (TURN_URLS.length > 0 && TURN_SECRET) {
    servers.push({ urls: TURN_URLS, ...turnCredentials(TURN_SECRET, userId, ctx.now()) });
  }
  return servers;
}

/**
 * Ad-hoc mesh rooms (`POST /api/calls/rooms`), kept in this node's memory: the id is an unguessable
 * capability shared by link. With several nodes a room is known only to the node that created it
 * (sticky sessions, or a table, would lift that — see docs/calls.md).
 */
export class AdHocRooms {
  private readonly rooms = new Map<string, { createdBy: string; createdAt: number }>();

  create(userId: string, now: Date): string {
    const id = `r-${randomUUID()}`;
    this.rooms.set(id, { createdBy: userId, createdAt: now.getTime() });
    return id;
  }

  has(id: string): boolean {
    return this.rooms.has(id);
  }
}
