import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { PEOPLE_MESSAGES } from '@cohort/shared/people';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { sharesWorkspace } from './workspaces.access.ts';

/**
 * Who may write to whom: people who share a workspace. Used by direct messages and by files shared in
 * a direct conversation (and presence), so that neither depends on the other.
 */

export interface Party {
  id: string;
  email: string;
}

/** The pair in the order the table keys it (user_a < user_b). */
export const orderedPair = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

export const recipientNotFound = () => notFound(CHAT_MESSAGES.recipientNotFound);

export async function findUserByEmail(ctx: AppContext, email: string): Promise<Party | null> {
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

/**
 * Two people may message each other only while they are both (active) members of one workspace: once
 * they no longer share one (one left or was removed), sending stops, even in an existing
 * conversation, whose history stays readable. An unknown e-mail and a stranger get the same answer,
 * so the endpoint cannot be used to find out who has an account.
 */
export async function loadRecipientForUser(ctx: AppContext, caller: Party, email: string): Promise<Party> {
  const receiver = await findUserByEmail(ctx, email);
  if (!receiver || receiver.id === caller.id) throw recipientNotFound();
  if (!(await sharesWorkspace(ctx, caller.id, receiver.id))) throw recipientNotFound();
  return receiver;
}

export interface Peer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Names of the workspaces the caller and this person are both members of, by name. */
  sharedWorkspaces: string[];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** `%word%` for ILIKE, with `%`, `_` and `\` taken literally. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The caller's peers matching `where` (on `u`), with the workspaces they share, in one query. */
async function peersWhere(ctx: AppContext, callerId: string, where: SQL, limit: number): Promise<Peer[]> {
  const result = await ctx.db.execute(sql`
    select u.id, u.email, u.first_name, u.last_name,
      array_agg(w.name order by lower(w.name)) as shared
    from ${workspaceMembers} mine
    join ${workspaceMembers} theirs on theirs.workspace_id = mine.workspace_id
      and theirs.user_id <> mine.user_id
    join ${workspaces} w on w.id = mine.workspace_id
    join ${users} u on u.id = theirs.user_id
    where mine.user_id = ${callerId}::uuid and ${where}
    group by u.id
    order by lower(u.first_name), lower(u.last_name), u.email
    limit ${limit}`);
  return rowsOf<{ id: string; email: string; first_name: string; last_name: string; shared: string[] }>(
    result,
  ).map((r) => ({
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    sharedWorkspaces: r.shared,
  }));
}

/**
 * People who share a workspace with the caller (never the caller), whose name or e-mail holds every
 * word of `q`; everyone, for an empty `q`. At most `limit`, by name.
 */
export function searchPeers(ctx: AppContext, callerId: string, q: string, limit: number): Promise<Peer[]> {
  const words = q.split(/\s+/).filter(Boolean);
  const matches = words.map(
    (w) =>
      sql`((u.first_name || ' ' || u.last_name) ilike ${containing(w)} or u.email ilike ${containing(w)})`,
  );
  return peersWhere(ctx, callerId, matches.length ? sql.join(matches, sql` and `) : sql`true`, limit);
}

/** The peer with this e-mail; 404 (the same for an unknown address, the caller and a stranger). */
export async function loadPeerForUser(ctx: AppContext, callerId: string, email: string): Promise<Peer> {
  const [peer] = await peersWhere(ctx, callerId, sql`u.email = ${email.trim().toLowerCase()}`, 1);
  if (!peer) throw notFound(PEOPLE_MESSAGES.notMessageable);
  return peer;
}
