import { SWITCHER_MAX_CHANNELS, SWITCHER_MAX_PEOPLE, SWITCHER_MAX_WORKSPACES } from '@cohort/shared/switcher';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import { channels, workspaces } from '../../db/schema.ts';
import { type Peer, searchPeers } from '../workspaces/peers.access.ts';
import { type Caller, listMemberships, readableChannelIdsSql } from '../workspaces/workspaces.access.ts';

/**
 * What the quick switcher offers the caller (packages/shared/src/switcher.ts), read-only. Who sees what
 * is decided by the access funnel: channels through `readableChannelIdsSql` (membership, privacy, the
 * two-factor rule, as `loadChannelForUser`), people through `searchPeers` (co-members, as direct
 * messages), workspaces through `listMemberships`. Every list is capped, so others (a workspace full of
 * channels, many invited members) cannot make the answer unbounded.
 */

export interface SwitcherChannelRow {
  id: string;
  name: string;
  isPrivate: boolean;
  archived: boolean;
  workspaceId: string;
  workspaceName: string;
}

export interface SwitcherRows {
  channels: SwitcherChannelRow[];
  people: Peer[];
  workspaces: { id: string; name: string }[];
}

async function readableChannels(ctx: AppContext, caller: Caller): Promise<SwitcherChannelRow[]> {
  const result = await ctx.db.execute(sql`
    select c.id, c.name, c.is_private, c.archived_at is not null as archived,
      w.id as workspace_id, w.name as workspace_name
    from ${channels} c join ${workspaces} w on w.id = c.workspace_id
    where c.id in (${readableChannelIdsSql(sql`${caller.id}::uuid`)})
    order by (c.archived_at is not null), lower(c.name), lower(w.name), c.id
    limit ${SWITCHER_MAX_CHANNELS}`);
  return rowsOf<{
    id: string;
    name: string;
    is_private: boolean;
    archived: boolean;
    workspace_id: string;
    workspace_name: string;
  }>(result).map((r) => ({
    id: r.id,
    name: r.name,
    isPrivate: r.is_private,
    archived: r.archived,
    workspaceId: r.workspace_id,
    workspaceName: r.workspace_name,
  }));
}

export async function switcherDestinations(ctx: AppContext, caller: Caller): Promise<SwitcherRows> {
  // One after the other: PGlite runs one statement at a time anyway, and PostgreSQL answers each in ~1 ms.
  const channelRows = await readableChannels(ctx, caller);
  const people = await searchPeers(ctx, caller.id, '', SWITCHER_MAX_PEOPLE);
  const memberships = await listMemberships(ctx, caller.id);
  return {
    channels: channelRows,
    people,
    workspaces: memberships.slice(0, SWITCHER_MAX_WORKSPACES).map((m) => ({ id: m.id, name: m.name })),
  };
}
