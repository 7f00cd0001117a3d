import { type Project, type ProjectItem, repositoryUrlOf, type WorkspaceUser } from '@cohort/shared/projects';
import type { ProjectItemRow, ProjectView } from './projects.service.ts';

/** The only way projects leave the server (spec §3 Project, Pull request, Issue). */

export function presentProjectItem(item: ProjectItemRow): ProjectItem {
  return {
    id: item.id,
    number: item.number,
    title: item.title,
    url: item.url,
    state: item.state,
    author: item.author,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
    assignee: item.assigneeId,
  };
}

export function presentProject(view: ProjectView): Project {
  const { project } = view;
  return {
    _id: project.id,
    workspaceId: project.workspaceId,
    name: project.name,
    fullName: project.fullName,
    repositoryUrl: repositoryUrlOf({ owner: project.owner, repo: project.repo }),
    stars: project.stars,
    forks: project.forks,
    lastSynced: project.lastSyncedAt?.toISOString() ?? null,
    lastSyncError: project.lastSyncError,
    addedBy: view.addedByEmail,
    pullRequests: view.items.filter((i) => i.kind === 'pullrequest').map(presentProjectItem),
    issues: view.items.filter((i) => i.kind === 'issue').map(presentProjectItem),
  };
}

export function presentWorkspaceUser(user: {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}): WorkspaceUser {
  return { _id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email };
}
