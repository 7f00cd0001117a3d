import type { Project, ProjectItem, ProjectItemKind, WorkspaceUser } from '@cohort/shared/projects';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

const workspaceApi = (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}`;

export const projectKeys = {
  list: (workspaceId: string) => ['projects', workspaceId] as const,
  users: (workspaceId: string) => ['projects', workspaceId, 'users'] as const,
};

export const projectsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: projectKeys.list(workspaceId),
    // The spec's client treats missing pullRequests or issues as empty.
    queryFn: async ({ signal }) =>
      (await api.get<Project[]>(`${workspaceApi(workspaceId)}/projects`, signal)).map((p) => ({
        ...p,
        pullRequests: p.pullRequests ?? [],
        issues: p.issues ?? [],
      })),
  });

export const workspaceUsersQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: projectKeys.users(workspaceId),
    queryFn: ({ signal }) => api.get<WorkspaceUser[]>(`${workspaceApi(workspaceId)}/users`, signal),
  });

/** Puts a fresh copy of one project into the cached list (or appends it). */
function useStoreProject(workspaceId: string) {
  const queryClient = useQueryClient();
  return (project: Project) =>
    queryClient.setQueryData(projectKeys.list(workspaceId), (old: Project[] | undefined) =>
      old?.some((p) => p._id === project._id)
        ? old.map((p) => (p._id === project._id ? project : p))
        : [...(old ?? []), project],
    );
}

export function useAddProject(workspaceId: string) {
  const store = useStoreProject(workspaceId);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repositoryUrl: string) => api.post<Project>('/api/projects', { repositoryUrl, workspaceId }),
    onSuccess: (project) => {
      store(project);
      return queryClient.invalidateQueries({ queryKey: projectKeys.list(workspaceId) });
    },
  });
}

export function useSyncProject(workspaceId: string) {
  const store = useStoreProject(workspaceId);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) =>
      api.post<Project>(`/api/projects/${encodeURIComponent(projectId)}/sync`),
    onSuccess: store,
    // A failed sync is recorded on the project (lastSyncError): reload to show it.
    onError: () => queryClient.invalidateQueries({ queryKey: projectKeys.list(workspaceId) }),
  });
}

export interface AssignInput {
  projectId: string;
  kind: ProjectItemKind;
  itemId: string;
  userId: string | null;
}

/** The list changes only once the server accepted the assignment (spec §4 Assignee). */
export function useAssignItem(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, kind, itemId, userId }: AssignInput) =>
      api.patch<ProjectItem>(
        `/api/projects/${encodeURIComponent(projectId)}/${kind}/${encodeURIComponent(itemId)}/assign`,
        { userId },
      ),
    onSuccess: (item, { projectId, kind }) => {
      const field = kind === 'pullrequest' ? 'pullRequests' : 'issues';
      queryClient.setQueryData(projectKeys.list(workspaceId), (old: Project[] | undefined) =>
        old?.map((p) =>
          p._id === projectId ? { ...p, [field]: p[field].map((i) => (i.id === item.id ? item : i)) } : p,
        ),
      );
    },
  });
}
