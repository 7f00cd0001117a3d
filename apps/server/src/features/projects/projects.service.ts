import {
  PROJECT_MESSAGES,
  type ProjectItemKind,
  type RepositoryRef,
  rateLimitMessage,
} from '@cohort/shared/projects';
import { and, asc, desc, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { projectEtags, projectItems, projects, users } from '../../db/schema.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import { type Caller, isUuid, listWorkspaceUsers, workspaceRoleOf } from '../workspaces/workspaces.access.ts';
import { type GithubClient, GithubError, type ItemData, type RepositoryData } from './github.client.ts';
import type { ProjectRow } from './projects.access.ts';

export type ProjectItemRow = typeof projectItems.$inferSelect;

export interface ProjectView {
  project: ProjectRow;
  addedByEmail: string | null;
  items: ProjectItemRow[];
}

/** A sync holds its project this long at most (a crashed node's lease simply runs out). */
const SYNC_LEASE_MS = 10 * 60 * 1000;
const UPSERT_CHUNK = 500;

/** GitHub's failure as the API answers it: 404, 503 with the reset time, or 502. */
export function githubHttpError(err: GithubError): HttpError {
  if (err.kind === 'not-found') return new HttpError(404, PROJECT_MESSAGES.repositoryNotFound);
  if (err.kind === 'rate-limited') return new HttpError(503, rateLimitMessage(err.resetAt ?? new Date()));
  return new HttpError(502, PROJECT_MESSAGES.githubUnavailable);
}

// ---------------------------------------------------------------------------------------------------
// Reads

export async function listProjectViews(ctx: AppContext, where: { workspaceId?: string; ids?: string[] }) {
  const rows = await ctx.db
    .select({ project: projects, addedByEmail: users.email })
    .from(projects)
    .leftJoin(users, eq(users.id, projects.addedBy))
    .where(where.ids ? inArray(projects.id, where.ids) : eq(projects.workspaceId, where.workspaceId ?? ''))
    .orderBy(asc(projects.createdAt), asc(projects.id));
  if (rows.length === 0) return [];
  const items = await ctx.db
    .select()
    .from(projectItems)
    .where(
      inArray(
        projectItems.projectId,
        rows.map((r) => r.project.id),
      ),
    )
    // Newest first, as GitHub lists them.
    .orderBy(desc(projectItems.createdAt), desc(projectItems.number));
  // Someone who left the workspace is no longer shown as an assignee (re-adding them shows it again).
  const members = new Map<string, Set<string>>();
  for (const workspaceId of new Set(rows.map((r) => r.project.workspaceId))) {
    members.set(workspaceId, new Set((await listWorkspaceUsers(ctx, workspaceId)).map((u) => u.id)));
  }
  const workspaceOf = new Map(rows.map((r) => [r.project.id, r.project.workspaceId]));
  const byProject = new Map<string, ProjectItemRow[]>(rows.map((r) => [r.project.id, []]));
  for (const item of items) {
    const isMember =
      item.assigneeId && members.get(workspaceOf.get(item.projectId) ?? '')?.has(item.assigneeId);
    byProject.get(item.projectId)?.push(isMember ? item : { ...item, assigneeId: null });
  }
  return rows.map(
    (r): ProjectView => ({
      project: r.project,
      addedByEmail: r.addedByEmail,
      items: byProject.get(r.project.id) ?? [],
    }),
  );
}

export async function projectView(ctx: AppContext, projectId: string): Promise<ProjectView> {
  const [view] = await listProjectViews(ctx, { ids: [projectId] });
  if (!view) throw notFound(PROJECT_MESSAGES.projectNotFound);
  return view;
}

// ---------------------------------------------------------------------------------------------------
// Sync

interface Snapshot {
  repository: { data: RepositoryData; etag: string | null } | null;
  pullRequests: { data: ItemData[]; etag: string | null } | null;
  issues: { data: ItemData[]; etag: string | null } | null;
}

/** Reads the repository from GitHub, conditionally on the ETags of the last good sync. */
async function fetchSnapshot(
  github: GithubClient,
  ref: RepositoryRef,
  etags: Map<string, string> = new Map(),
): Promise<Snapshot> {
  const [repository, pullRequests, issues] = await Promise.all([
    github.repository(ref, etags.get('repo')),
    github.pullRequests(ref, etags.get('pulls')),
    github.issues(ref, etags.get('issues')),
  ]);
  return { repository, pullRequests, issues };
}

async function upsertItems(
  db: Db | Tx,
  projectId: string,
  kind: ProjectItemKind,
  items: ItemData[],
  onlyNewer = false,
) {
  for (let i = 0; i < items.length; i += UPSERT_CHUNK) {
    await db
      .insert(projectItems)
      .values(items.slice(i, i + UPSERT_CHUNK).map((item) => ({ projectId, kind, ...item })))
      // What GitHub owns is rewritten; the assignee is Cohort's and stays.
      .onConflictDoUpdate({
        target: [projectItems.projectId, projectItems.kind, projectItems.number],
        set: {
          title: sql`excluded.title`,
          url: sql`excluded.url`,
          state: sql`excluded.state`,
          author: sql`excluded.author`,
          createdAt: sql`excluded.created_at`,
          updatedAt: sql`excluded.updated_at`,
        },
        // A webhook delivered late must not undo a newer state.
        setWhere: onlyNewer ? sql`${projectItems.updatedAt} <= excluded.updated_at` : undefined,
      });
  }
}

/** Replaces one listing (pull requests or issues): upserts what GitHub listed, drops the rest. */
async function replaceItems(tx: Tx, projectId: string, kind: ProjectItemKind, items: ItemData[]) {
  await upsertItems(tx, projectId, kind, items);
  const numbers = items.map((i) => i.number);
  await tx
    .delete(projectItems)
    .where(
      and(
        eq(projectItems.projectId, projectId),
        eq(projectItems.kind, kind),
        numbers.length ? notInArray(projectItems.number, numbers) : undefined,
      ),
    );
}

async function saveEtag(tx: Tx, projectId: string, resource: string, etag: string | null) {
  if (!etag) {
    await tx
      .delete(projectEtags)
      .where(and(eq(projectEtags.projectId, projectId), eq(projectEtags.resource, resource)));
    return;
  }
  await tx
    .insert(projectEtags)
    .values({ projectId, resource, etag })
    .onConflictDoUpdate({ target: [projectEtags.projectId, projectEtags.resource], set: { etag } });
}

/** Writes a snapshot in one transaction; the ETags are saved with the data they describe. */
async function storeSnapshot(tx: Tx, projectId: string, snapshot: Snapshot, now: Date) {
  if (snapshot.repository) {
    const { data, etag } = snapshot.repository;
    await tx.update(projects).set(data).where(eq(projects.id, projectId));
    await saveEtag(tx, projectId, 'repo', etag);
  }
  if (snapshot.pullRequests) {
    await replaceItems(tx, projectId, 'pullrequest', snapshot.pullRequests.data);
    await saveEtag(tx, projectId, 'pulls', snapshot.pullRequests.etag);
  }
  if (snapshot.issues) {
    await replaceItems(tx, projectId, 'issue', snapshot.issues.data);
    await saveEtag(tx, projectId, 'issues', snapshot.issues.etag);
  }
  await tx
    .update(projects)
    .set({ lastSyncedAt: now, lastSyncAttemptAt: now, lastSyncError: null })
    .where(eq(projects.id, projectId));
}

/**
 * Links a repository: the first sync runs here, so GitHub's answer (404, 503, 502) is the answer
 * and nothing is stored unless it succeeded.
 */
export async function createProject(
  ctx: AppContext,
  github: GithubClient,
  caller: Caller,
  workspaceId: string,
  ref: RepositoryRef,
): Promise<string> {
  await assertNotLinked(ctx.db, workspaceId, ref);
  let snapshot: Snapshot;
  try {
    snapshot = await fetchSnapshot(github, ref);
  } catch (err) {
    if (err instanceof GithubError) throw githubHttpError(err);
    throw err;
  }
  const repository = snapshot.repository?.data;
  if (!repository) throw new HttpError(502, PROJECT_MESSAGES.githubUnavailable);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(projects)
        .values({ workspaceId, ...ref, ...repository, addedBy: caller.id })
        .returning({ id: projects.id });
      if (!row) throw new Error('project insert returned nothing');
      await storeSnapshot(tx, row.id, snapshot, ctx.now());
      return row.id;
    });
  } catch (err) {
    // Two links of the same repository at once: the unique index lets one through.
    if (isUniqueViolation(err)) throw conflict(PROJECT_MESSAGES.alreadyLinked);
    throw err;
  }
}

async function assertNotLinked(db: Db, workspaceId: string, ref: RepositoryRef) {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        eq(projects.workspaceId, workspaceId),
        sql`lower(${projects.owner}) = lower(${ref.owner})`,
        sql`lower(${projects.repo}) = lower(${ref.repo})`,
      ),
    );
  if (row) throw conflict(PROJECT_MESSAGES.alreadyLinked);
}

/**
 * Takes the project's sync lease if no node holds it (one atomic UPDATE, so only one node wins);
 * with `dueBefore`, only if it was not synced since then (another node may just have done it).
 */
async function claimSync(ctx: AppContext, projectId: string, dueBefore?: Date): Promise<boolean> {
  const now = ctx.now();
  const rows = await ctx.db
    .update(projects)
    .set({ syncLeaseUntil: new Date(now.getTime() + SYNC_LEASE_MS) })
    .where(
      and(
        eq(projects.id, projectId),
        or(isNull(projects.syncLeaseUntil), lt(projects.syncLeaseUntil, now)),
        dueBefore
          ? or(isNull(projects.lastSyncAttemptAt), lt(projects.lastSyncAttemptAt, dueBefore))
          : undefined,
      ),
    )
    .returning({ id: projects.id });
  return rows.length > 0;
}

/**
 * Re-syncs a linked project under its lease (a background sync passes `dueBefore` and is skipped,
 * answering false, when another node holds the lease or synced it meanwhile). When GitHub fails, the last synced data stays, the
 * error is recorded for the page to show, and it is thrown as the HTTP answer.
 */
export async function syncProject(
  ctx: AppContext,
  github: GithubClient,
  projectId: string,
  opts: { dueBefore?: Date } = {},
): Promise<boolean> {
  if (!(await claimSync(ctx, projectId, opts.dueBefore))) {
    if (opts.dueBefore) return false;
    throw conflict(PROJECT_MESSAGES.syncRunning);
  }
  try {
    const [project] = await ctx.db.select().from(projects).where(eq(projects.id, projectId));
    if (!project) throw notFound(PROJECT_MESSAGES.projectNotFound);
    const etagRows = await ctx.db.select().from(projectEtags).where(eq(projectEtags.projectId, projectId));
    const etags = new Map(etagRows.map((r) => [r.resource, r.etag]));
    let snapshot: Snapshot;
    try {
      snapshot = await fetchSnapshot(github, { owner: project.owner, repo: project.repo }, etags);
    } catch (err) {
      if (!(err instanceof GithubError)) throw err;
      const answer = githubHttpError(err);
      await ctx.db
        .update(projects)
        .set({ lastSyncAttemptAt: ctx.now(), lastSyncError: answer.message })
        .where(eq(projects.id, projectId));
      throw answer;
    }
    await ctx.db.transaction((tx) => storeSnapshot(tx, projectId, snapshot, ctx.now()));
    return true;
  } finally {
    await ctx.db.update(projects).set({ syncLeaseUntil: null }).where(eq(projects.id, projectId));
  }
}

/** Projects whose last sync attempt is older than the interval and that no node is syncing. */
export async function dueProjectIds(ctx: AppContext, intervalMs: number, limit: number): Promise<string[]> {
  const now = ctx.now();
  const rows = await ctx.db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        or(
          isNull(projects.lastSyncAttemptAt),
          lt(projects.lastSyncAttemptAt, new Date(now.getTime() - intervalMs)),
        ),
        or(isNull(projects.syncLeaseUntil), lt(projects.syncLeaseUntil, now)),
      ),
    )
    .orderBy(sql`${projects.lastSyncAttemptAt} asc nulls first`)
    .limit(limit);
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------------
// Writes

export async function assignItem(
  ctx: AppContext,
  project: ProjectRow,
  kind: ProjectItemKind,
  itemId: string,
  userId: string | null,
): Promise<ProjectItemRow> {
  if (!isUuid(itemId)) throw notFound(PROJECT_MESSAGES.itemNotFound);
  if (userId !== null && !(await workspaceRoleOf(ctx, project.workspaceId, userId))) {
    throw badRequest(PROJECT_MESSAGES.assigneeNotMember, 'userId');
  }
  const [row] = await ctx.db
    .update(projectItems)
    .set({ assigneeId: userId })
    .where(
      and(eq(projectItems.id, itemId), eq(projectItems.projectId, project.id), eq(projectItems.kind, kind)),
    )
    .returning();
  if (!row) throw notFound(PROJECT_MESSAGES.itemNotFound);
  return row;
}

export async function deleteProject(ctx: AppContext, project: ProjectRow) {
  await ctx.db.delete(projects).where(eq(projects.id, project.id));
}

/** A pull request or issue GitHub told us about (webhook): updated at once in every linking project. */
export async function applyItemEvent(
  ctx: AppContext,
  ref: RepositoryRef,
  kind: ProjectItemKind,
  item: ItemData,
  deleted: boolean,
): Promise<number> {
  const linked = await ctx.db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        sql`lower(${projects.owner}) = lower(${ref.owner})`,
        sql`lower(${projects.repo}) = lower(${ref.repo})`,
      ),
    );
  for (const { id } of linked) {
    if (deleted) {
      await ctx.db
        .delete(projectItems)
        .where(
          and(
            eq(projectItems.projectId, id),
            eq(projectItems.kind, kind),
            eq(projectItems.number, item.number),
          ),
        );
    } else {
      await upsertItems(ctx.db, id, kind, [item], true);
    }
  }
  return linked.length;
}
