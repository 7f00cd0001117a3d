import { z } from 'zod';

/** Project manager: linked GitHub repositories, their pull requests and issues (spec §3 Project, §7 Projects). */

/** The messages the server sends and the client shows (spec §5 and §8 where the spec names them). */
/** Manual "Sync now" per project and minute (the background sync is not counted). */
export const MANUAL_SYNCS_PER_MINUTE = 3;

export const PROJECT_MESSAGES = {
  syncTooOften: `This project was synced ${MANUAL_SYNCS_PER_MINUTE} times in the last minute; try again shortly.`,
  urlRequired: 'Please enter a GitHub repository URL',
  urlInvalid: 'Please enter a valid GitHub repository URL',
  addFailed: 'Failed to add project',
  assignFailed: 'Failed to assign item',
  alreadyLinked: 'This repository is already a project of this workspace',
  repositoryNotFound: 'Repository not found or not accessible',
  githubUnavailable: 'GitHub could not be reached. Please try again later',
  syncRunning: 'This project is being synced right now. Please try again in a moment',
  projectNotFound: 'Project not found',
  itemNotFound: 'Item not found',
  assigneeNotMember: 'The assignee must be a member of this workspace',
  webhookNotConfigured: 'Webhooks are not configured',
  webhookSignatureInvalid: 'Invalid webhook signature',
} as const;

/** "GitHub rate limit reached…" with the moment the limit resets (an ISO date-time). */
export const rateLimitMessage = (resetAt: Date) =>
  `GitHub rate limit reached. Try again after ${resetAt.toISOString()}`;

export const REPOSITORY_URL_MAX_LENGTH = 300;

/**
 * GitHub's own rules: an owner is 1-39 letters, digits or hyphens, not starting or ending with a
 * hyphen; a repository is 1-100 letters, digits, `.`, `_` or `-`. Nothing else gets through: no `%`,
 * no spaces, no `@`, no other host, no port, no query.
 */
const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?';
const REPO = '[A-Za-z0-9._-]{1,100}?';
const REPOSITORY_URL_RE = new RegExp(
  `^(?:https://)?(?:www\\.)?github\\.com/(${OWNER})/(${REPO})(?:\\.git)?/?$`,
  'i',
);
const OWNER_RE = new RegExp(`^${OWNER}$`);
const REPO_RE = /^[A-Za-z0-9._-]{1,100}$/;

export interface RepositoryRef {
  owner: string;
  repo: string;
}

/** True for an owner and a repository name that may be put into a GitHub API path as they are. */
export function isValidRepositoryRef(ref: RepositoryRef): boolean {
  return (
    OWNER_RE.test(ref.owner) &&
    REPO_RE.test(ref.repo) &&
    !ref.repo.includes('..') &&
    ref.repo !== '.' &&
    !/\.git$/i.test(ref.repo)
  );
}

/**
 * `https://github.com/{owner}/{repo}` with an optional `.git`, trailing slash or `www.`, and the same
 * without `https://`; null for anything else. The server never requests this URL: it only builds API
 * requests from the owner and repository parsed here.
 */
export function parseRepositoryUrl(input: string): RepositoryRef | null {
  const match = REPOSITORY_URL_RE.exec(input.trim());
  if (!match) return null;
  const ref = { owner: match[1] ?? '', repo: match[2] ?? '' };
  return isValidRepositoryRef(ref) ? ref : null;
}

export const repositoryUrlOf = (ref: RepositoryRef) => `https://github.com/${ref.owner}/${ref.repo}`;

// ---------------------------------------------------------------------------------------------------
// Requests

/** `addedBy` from the spec's client is accepted and dropped: the session user adds the project. */
export const createProjectBody = z
  .object({
    repositoryUrl: z.string().max(REPOSITORY_URL_MAX_LENGTH, PROJECT_MESSAGES.urlInvalid).optional(),
    workspaceId: z.string().min(1, 'workspaceId is required').max(200),
    addedBy: z.unknown().optional(),
  })
  .transform((v, ctx) => {
    const url = v.repositoryUrl?.trim() ?? '';
    if (!url) {
      ctx.addIssue({ code: 'custom', message: PROJECT_MESSAGES.urlRequired, path: ['repositoryUrl'] });
      return z.NEVER;
    }
    const ref = parseRepositoryUrl(url);
    if (!ref) {
      ctx.addIssue({ code: 'custom', message: PROJECT_MESSAGES.urlInvalid, path: ['repositoryUrl'] });
      return z.NEVER;
    }
    return { workspaceId: v.workspaceId, ...ref };
  });
export type CreateProjectBody = z.input<typeof createProjectBody>;

export const PROJECT_ITEM_KINDS = ['pullrequest', 'issue'] as const;
export type ProjectItemKind = (typeof PROJECT_ITEM_KINDS)[number];

export const projectWorkspaceParams = z.object({ workspaceId: z.string().min(1).max(200) });
export const projectParams = z.object({ projectId: z.string().min(1).max(200) });
export const projectItemParams = projectParams.extend({
  kind: z.enum(PROJECT_ITEM_KINDS, { error: 'The item kind is pullrequest or issue' }),
  itemId: z.string().min(1).max(200),
});

/** `userId` null (or absent) unassigns. */
export const assignItemBody = z.object({
  userId: z.uuid('userId must be a user id').nullable().default(null),
});
export type AssignItemBody = z.input<typeof assignItemBody>;

// ---------------------------------------------------------------------------------------------------
// Responses

export const PULL_REQUEST_STATES = ['open', 'merged', 'closed'] as const;
export const ISSUE_STATES = ['open', 'closed'] as const;
export type ProjectItemState = (typeof PULL_REQUEST_STATES)[number];

export const projectItem = z.object({
  /** The item's id in Cohort (stable across syncs): the `itemId` of the assign route. */
  id: z.string(),
  number: z.number(),
  title: z.string(),
  url: z.string(),
  state: z.enum(PULL_REQUEST_STATES),
  author: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** A user id of a workspace member, or null. */
  assignee: z.string().nullable(),
});
export type ProjectItem = z.infer<typeof projectItem>;

export const project = z.object({
  _id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  fullName: z.string(),
  repositoryUrl: z.string(),
  stars: z.number(),
  forks: z.number(),
  lastSynced: z.string().nullable(),
  /** Why the last sync failed (the data shown is then from `lastSynced`); null after a good sync. */
  lastSyncError: z.string().nullable(),
  /** The e-mail of the member who linked it; null once that account is gone. */
  addedBy: z.string().nullable(),
  pullRequests: z.array(projectItem),
  issues: z.array(projectItem),
});
export type Project = z.infer<typeof project>;
export const projectList = z.array(project);

/** A row of GET /api/workspaces/{workspaceId}/users: the assignee dropdown. */
export const workspaceUser = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type WorkspaceUser = z.infer<typeof workspaceUser>;
export const workspaceUserList = z.array(workspaceUser);
