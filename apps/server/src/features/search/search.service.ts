import { type ParsedSearch, SEARCH_GROUP_LIMIT, SEARCH_MESSAGES } from '@cohort/shared/search';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import {
  channelMessages,
  channels,
  directConversations,
  directMessages,
  taskAssignees,
  taskLists,
  tasks,
  users,
  workspaces,
} from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { type Caller, coMemberIdsSql, readableChannelIdsSql } from '../workspaces/workspaces.access.ts';

/**
 * Search reads the indexed content of chat, direct messages, workspaces and tasks, read-only (see
 * docs/decisions/0006-search-reads-across-features.md). Every query carries the caller's access rule
 * inside its SQL — the same rules as `loadChannelForUser`, DM participation and `loadTaskForUser` — so
 * what the caller may not read is never a row of the result, and pages stay correct.
 */

/** Highlight delimiters: private-use characters, removed from the text first so they cannot be forged. */
export const HIGHLIGHT_START = '\uE000';
export const HIGHLIGHT_STOP = '\uE001';
const LT = '\uE002';
const START = HIGHLIGHT_START;
const STOP = HIGHLIGHT_STOP;
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=35, MinWords=15, ShortWord=0`;
const PLAIN_SNIPPET_LENGTH = 240;

/**
 * The full-text query for the free words, built safely: every word goes through plainto_tsquery (the
 * parser treats it as text, whatever it contains), and the last word also matches as a prefix, from
 * lexemes reduced to letters and digits before they are quoted into tsquery syntax. Null without words.
 */
export function textQuery(words: readonly string[]): SQL | null {
  if (words.length === 0) return null;
  const last = words.at(-1) as string;
  const exact = sql`plainto_tsquery('simple', ${words.join(' ')})`;
  const parts = last
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 10);
  if (parts.length === 0) return exact;
  const prefix = parts.map((p, i) => `'${p}'${i === parts.length - 1 ? ':*' : ''}`).join(' & ');
  const lastQuery = sql`(plainto_tsquery('simple', ${last}) || to_tsquery('simple', ${prefix}))`;
  const rest = words.slice(0, -1).join(' ');
  return rest ? sql`(plainto_tsquery('simple', ${rest}) && ${lastQuery})` : lastQuery;
}

/**
 * Up to this many raw matches a query reads them through the GIN index and sorts (a few ms); beyond,
 * walking the newest messages finds a page sooner. Measured in bench/search.ts (docs/search.md).
 */
export const FEW_MATCHES = 2000;

/**
 * A word in at least DENSE_HITS of the newest RECENT_MESSAGES (1 %) is common: walking newest first
 * finds a page within a few thousand rows, so it skips the GIN probe (whose bitmap would be large).
 */
const RECENT_MESSAGES = 5000;
const DENSE_HITS = 50;

/** Cheap first look: an index walk over the newest messages. */
async function denseRecently(tx: Pick<AppContext['db'], 'execute'>, tsq: SQL): Promise<boolean> {
  const result = await tx.execute(sql`select count(*)::int as hits from (
    select 1 from (select m.search from ${channelMessages} m
      order by m.created_at desc, m.id desc limit ${RECENT_MESSAGES}) r
    where r.search @@ ${tsq} limit ${DENSE_HITS}) x`);
  return Number(rowsOf<{ hits: number }>(result)[0]?.hits ?? 0) >= DENSE_HITS;
}

/** Transaction-local planner switches: with scans off, only bitmap (GIN) scans are left to read rows. */
const setPlanner = (value: 'on' | 'off') =>
  ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan']
    .map((name) => `set_config('${name}', '${value}', true)`)
    .join(', ');

interface Cursor {
  at: string;
  id: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURSOR_TIME_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

export const encodeCursor = (c: Cursor) => Buffer.from(`${c.at}|${c.id}`).toString('base64url');

export function decodeCursor(raw: string): Cursor {
  const [at, id, extra] = Buffer.from(raw, 'base64url').toString().split('|');
  if (!at || !id || extra !== undefined || !CURSOR_TIME_RE.test(at) || !UUID_RE.test(id)) {
    throw badRequest(SEARCH_MESSAGES.invalidCursor, 'cursor');
  }
  return { at, id };
}

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`).toISOString();

/** The date filters as a condition on `column` (whole UTC days). */
function dateConditions(query: ParsedSearch, column: SQL): SQL[] {
  const out: SQL[] = [];
  if (query.after) out.push(sql`${column} >= ${dayAfter(query.after)}::timestamptz`);
  if (query.before) out.push(sql`${column} < ${dayStart(query.before)}::timestamptz`);
  if (query.during) {
    out.push(sql`${column} >= ${dayStart(query.during)}::timestamptz`);
    out.push(sql`${column} < ${dayAfter(query.during)}::timestamptz`);
  }
  return out;
}

/**
 * The ids of the people `from:` names: `me`, an e-mail, a first or last name, a full name with dots,
 * or a local part. Resolved before the search, so a single sender is an equality the planner can
 * walk the (sender, time) index with, newest first.
 */
async function senderIds(ctx: AppContext, caller: Caller, from: string): Promise<string[]> {
  if (from.toLowerCase() === 'me') return [caller.id];
  const name = from.replaceAll('.', ' ');
  const result = await ctx.db.execute(sql`
    select u.id from ${users} u
    where lower(u.email) = lower(${from})
       or split_part(lower(u.email), '@', 1) = lower(${from})
       or lower(u.first_name) = lower(${from})
       or lower(u.last_name) = lower(${from})
       or lower(u.first_name || ' ' || u.last_name) = lower(${name})
    limit 1000`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

function senderCondition(ids: readonly string[], column: SQL): SQL {
  if (ids.length === 1) return sql`${column} = ${ids[0]}::uuid`;
  if (ids.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

export interface MessageHitRow {
  kind: 'channel' | 'direct';
  id: string;
  seq: number;
  createdAt: Date;
  cursorAt: string;
  parentId: string | null;
  headline: string;
  highlighted: boolean;
  sender: { id: string; email: string; firstName: string; lastName: string };
  channel: { id: string; name: string; isPrivate: boolean } | null;
  workspace: { id: string; name: string } | null;
  other: { id: string; email: string; firstName: string; lastName: string } | null;
}

interface RawHit {
  kind: 'channel' | 'direct';
  id: string;
  seq: string | number;
  created_at: string | Date;
  cursor_at: string;
  parent_id: string | null;
  headline: string;
  highlighted: boolean;
  sender_id: string;
  sender_email: string;
  sender_first: string;
  sender_last: string;
  channel_id: string | null;
  channel_name: string | null;
  channel_private: boolean | null;
  workspace_id: string | null;
  workspace_name: string | null;
  other_id: string | null;
  other_email: string | null;
  other_first: string | null;
  other_last: string | null;
}

/**
 * Messages of channels the caller can read (workspace member; listed when private) and of their own
 * direct conversations, matching the words and filters, newest first, `limit` per page. Deleted
 * messages never match; thread replies do.
 */
export async function searchMessages(
  ctx: AppContext,
  caller: Caller,
  query: ParsedSearch,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ hits: MessageHitRow[]; nextCursor: string | null }> {
  const tsq = textQuery(query.words);
  const cursor = page.cursor ? decodeCursor(page.cursor) : null;
  const me = sql`${caller.id}::uuid`;
  const take = page.limit + 1;

  const senders = query.from ? await senderIds(ctx, caller, query.from) : null;
  const common = (m: SQL): SQL[] => {
    const out: SQL[] = [sql`${m}.deleted_at is null`];
    if (tsq) out.push(sql`${m}.search @@ ${tsq}`);
    if (senders) out.push(senderCondition(senders, sql`${m}.sender_id`));
    out.push(...dateConditions(query, sql`${m}.created_at`));
    if (cursor) {
      out.push(sql`(${m}.created_at, ${m}.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
    }
    return out;
  };

  // The channels the caller may read: the rule of loadChannelForUser, as a set.
  const readable = readableChannelIdsSql(me, query.in ? sql`lower(c.name) = lower(${query.in})` : undefined);

  const channelBranch = sql`select 'channel' as kind, m.id, m.seq, m.created_at, m.sender_id, m.content,
      m.parent_id, m.channel_id as place_id
    from ${channelMessages} m
    where m.channel_id in (${readable}) and ${sql.join(common(sql`m`), sql` and `)}
    order by m.created_at desc, m.id desc limit ${take}`;

  // `in:` names a channel: direct messages are left out then.
  const directBranch = query.in
    ? null
    : sql`select 'direct' as kind, m.id, m.seq, m.created_at, m.sender_id, m.content,
        null::uuid as parent_id, m.conversation_id as place_id
      from ${directMessages} m
      where m.conversation_id in (
        select dc.id from ${directConversations} dc where dc.user_a = ${me} or dc.user_b = ${me})
        and ${sql.join(common(sql`m`), sql` and `)}
      order by m.created_at desc, m.id desc limit ${take}`;

  const union = directBranch ? sql`(${channelBranch}) union all (${directBranch})` : sql`(${channelBranch})`;

  const clean = sql`translate(h.content, ${START + STOP + LT}, '')`;
  // ts_headline drops what looks like an HTML tag: '<' is swapped out around it and restored after.
  const headline = tsq
    ? sql`replace(ts_headline('simple', replace(${clean}, '<', ${LT}), ${tsq}, ${HEADLINE_OPTIONS}), ${LT}, '<')`
    : sql`left(${clean}, ${PLAIN_SNIPPET_LENGTH})`;

  const result = await ctx.db.transaction(async (tx) => {
    // Few matches: read them all through the GIN index and sort them. Many: walk newest-first and
    // stop at the page. The planner cannot tell which from a prefix query, so two bounded probes
    // decide: common among the newest messages, else fewer than FEW_MATCHES through the index.
    if (tsq && !(await denseRecently(tx, tsq))) {
      await tx.execute(sql`select ${sql.raw(setPlanner('off'))}`);
      const probe = await tx.execute(sql`select
        (select count(*) from (select 1 from ${channelMessages} m where m.search @@ ${tsq}
          limit ${FEW_MATCHES}) c)::int +
        (select count(*) from (select 1 from ${directMessages} m where m.search @@ ${tsq}
          limit ${FEW_MATCHES}) d)::int as matches`);
      const [{ matches }] = rowsOf<{ matches: number }>(probe) as [{ matches: number }];
      if (Number(matches) >= FEW_MATCHES) await tx.execute(sql`select ${sql.raw(setPlanner('on'))}`);
    }
    return tx.execute(sql`
    select h.kind, h.id, h.seq, h.created_at, h.parent_id,
      to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
      ${headline} as headline, ${tsq ? sql`true` : sql`false`} as highlighted,
      s.id as sender_id, s.email as sender_email, s.first_name as sender_first, s.last_name as sender_last,
      c.id as channel_id, c.name as channel_name, c.is_private as channel_private,
      w.id as workspace_id, w.name as workspace_name,
      o.id as other_id, o.email as other_email, o.first_name as other_first, o.last_name as other_last
    from (select * from (${union}) u order by u.created_at desc, u.id desc limit ${take}) h
    join ${users} s on s.id = h.sender_id
    left join ${channels} c on h.kind = 'channel' and c.id = h.place_id
    left join ${workspaces} w on w.id = c.workspace_id
    left join ${directConversations} dc on h.kind = 'direct' and dc.id = h.place_id
    left join ${users} o on o.id = case when dc.user_a = ${me} then dc.user_b else dc.user_a end
    order by h.created_at desc, h.id desc`);
  });
  const rows = rowsOf<RawHit>(result);
  const more = rows.length > page.limit;
  const hits = rows.slice(0, page.limit).map(
    (r): MessageHitRow => ({
      kind: r.kind,
      id: r.id,
      seq: Number(r.seq),
      createdAt: new Date(r.created_at),
      cursorAt: r.cursor_at,
      parentId: r.parent_id,
      headline: r.headline,
      highlighted: r.highlighted,
      sender: { id: r.sender_id, email: r.sender_email, firstName: r.sender_first, lastName: r.sender_last },
      channel:
        r.kind === 'channel' && r.channel_id
          ? { id: r.channel_id, name: r.channel_name ?? '', isPrivate: r.channel_private ?? false }
          : null,
      workspace:
        r.kind === 'channel' && r.workspace_id ? { id: r.workspace_id, name: r.workspace_name ?? '' } : null,
      other:
        r.kind === 'direct' && r.other_id
          ? {
              id: r.other_id,
              email: r.other_email ?? '',
              firstName: r.other_first ?? '',
              lastName: r.other_last ?? '',
            }
          : null,
    }),
  );
  const lastHit = hits.at(-1);
  return {
    hits,
    nextCursor: more && lastHit ? encodeCursor({ at: lastHit.cursorAt, id: lastHit.id }) : null,
  };
}

/** `%word%` for ILIKE, with the pattern characters of the word escaped. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const allWords = (words: readonly string[], field: (pattern: string) => SQL) =>
  sql.join(
    words.map((w) => field(containing(w))),
    sql` and `,
  );

export interface ChannelHitRow {
  id: string;
  name: string;
  description: string;
  isPrivate: boolean;
  workspace: { id: string; name: string };
}

/** Channels the caller can read whose name or description holds every word. */
export async function searchChannels(
  ctx: AppContext,
  caller: Caller,
  words: readonly string[],
): Promise<ChannelHitRow[]> {
  const me = sql`${caller.id}::uuid`;
  const result = await ctx.db.execute(sql`
    select c.id, c.name, c.description, c.is_private, w.id as workspace_id, w.name as workspace_name
    from ${channels} c
    join ${workspaces} w on w.id = c.workspace_id
    where c.id in (${readableChannelIdsSql(me)})
      and ${allWords(words, (p) => sql`(c.name ilike ${p} or c.description ilike ${p})`)}
    order by lower(c.name), c.id
    limit ${SEARCH_GROUP_LIMIT}`);
  return rowsOf<{
    id: string;
    name: string;
    description: string;
    is_private: boolean;
    workspace_id: string;
    workspace_name: string;
  }>(result).map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    isPrivate: r.is_private,
    workspace: { id: r.workspace_id, name: r.workspace_name },
  }));
}

export interface TaskHitRow {
  id: string;
  title: string;
  listTitle: string | null;
  archived: boolean;
}

/** Tasks the caller owns or is assigned to (the rule of loadTaskForUser) whose title or description holds every word. */
export async function searchTasks(
  ctx: AppContext,
  caller: Caller,
  words: readonly string[],
): Promise<TaskHitRow[]> {
  const me = sql`${caller.id}::uuid`;
  const result = await ctx.db.execute(sql`
    select t.id, t.title, case when l.owner_id = ${me} then l.title end as list_title,
      t.archived_at is not null as archived
    from ${tasks} t
    join ${taskLists} l on l.id = t.list_id
    where (l.owner_id = ${me} or exists (
        select 1 from ${taskAssignees} a where a.task_id = t.id and a.user_id = ${me}))
      and ${allWords(words, (p) => sql`(t.title ilike ${p} or t.description ilike ${p})`)}
    order by t.archived_at is not null, t.updated_at desc, t.id
    limit ${SEARCH_GROUP_LIMIT}`);
  return rowsOf<{ id: string; title: string; list_title: string | null; archived: boolean }>(result).map(
    (r) => ({
      id: r.id,
      title: r.title,
      listTitle: r.list_title,
      archived: r.archived,
    }),
  );
}

export interface PersonHitRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** People who share a workspace with the caller (and the caller), by name or e-mail. */
export async function searchPeople(
  ctx: AppContext,
  caller: Caller,
  words: readonly string[],
): Promise<PersonHitRow[]> {
  const me = sql`${caller.id}::uuid`;
  const result = await ctx.db.execute(sql`
    select u.id, u.email, u.first_name, u.last_name
    from ${users} u
    where (u.id = ${me} or u.id in (${coMemberIdsSql(me)}))
      and ${allWords(
        words,
        (p) => sql`((u.first_name || ' ' || u.last_name) ilike ${p} or u.email ilike ${p})`,
      )}
    order by lower(u.first_name), lower(u.last_name), u.email
    limit ${SEARCH_GROUP_LIMIT}`);
  return rowsOf<{ id: string; email: string; first_name: string; last_name: string }>(result).map((r) => ({
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
  }));
}

/** One search: a page of messages, and on the first page the channels, tasks and people too. */
export async function search(
  ctx: AppContext,
  caller: Caller,
  query: ParsedSearch,
  page: { limit: number; cursor?: string | undefined },
) {
  const { hits, nextCursor } = await searchMessages(ctx, caller, query, page);
  const others = !page.cursor && query.words.length > 0;
  const [channelRows, taskRows, personRows] = others
    ? await Promise.all([
        searchChannels(ctx, caller, query.words),
        searchTasks(ctx, caller, query.words),
        searchPeople(ctx, caller, query.words),
      ])
    : [[], [], []];
  return { messages: hits, nextCursor, channels: channelRows, tasks: taskRows, people: personRows };
}
