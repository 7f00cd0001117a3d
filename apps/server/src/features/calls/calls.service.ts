import { createHmac, randomUUID } from 'node:crypto';
import { TURN_CREDENTIAL_TTL_SECONDS } from '@cohort/shared/calls';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { sharesWorkspace } from '../workspaces/workspaces.access.ts';

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
 * The person a caller may ring: someone with an account who shares a workspace with the caller (the
 * same rule as direct messages). Unknown e-mails, oneself and strangers all give null, so the caller
 * learns nothing more.
 */
export async function findCallee(ctx: AppContext, caller: Party, email: string): Promise<Party | null> {
  const callee = await findUserByEmail(ctx, email);
  if (!callee || callee.id === caller.id) return null;
  return (await sharesWorkspace(ctx, caller.id, callee.id)) ? callee : null;
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

/** How long an ad-hoc room's link lets people join (those already in the call stay). */
export const AD_HOC_ROOM_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Ad-hoc mesh rooms (`POST /api/calls/rooms`), kept in memory: the id is an unguessable capability
 * shared by link, valid for a day. `onCreated` lets the mesh namespace replicate new rooms to the
 * other nodes through the adapter.
 */
export class AdHocRooms {
  private readonly rooms = new Map<string, number>();
  onCreated: (id: string, expiresAt: number) => void = () => {};

  constructor(private readonly now: () => Date) {}

  create(): string {
    const id = `r-${randomUUID()}`;
    const expiresAt = this.now().getTime() + AD_HOC_ROOM_TTL_MS;
    this.add(id, expiresAt);
    this.onCreated(id, expiresAt);
    return id;
  }

  /** A room created on another node. */
  add(id: string, expiresAt: number): void {
    this.prune();
    this.rooms.set(id, expiresAt);
  }

  has(id: string): boolean {
    const expiresAt = this.rooms.get(id);
    return expiresAt !== undefined && expiresAt > this.now().getTime();
  }

  private prune() {
    const now = this.now().getTime();
    for (const [id, expiresAt] of this.rooms) if (expiresAt <= now) this.rooms.delete(id);
  }
}
