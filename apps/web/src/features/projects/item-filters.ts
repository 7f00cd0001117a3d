import { displayName } from '@cohort/shared/names';
import type { ProjectItem, WorkspaceUser } from '@cohort/shared/projects';

/** The filters above a tab's items: state, assignee and a title search. */
export interface ItemFilters {
  state: 'all' | 'open' | 'merged' | 'closed';
  /** 'all', 'unassigned' or a user id. */
  assignee: string;
  search: string;
}

export const NO_FILTERS: ItemFilters = { state: 'all', assignee: 'all', search: '' };

export function filterItems(items: ProjectItem[], filters: ItemFilters): ProjectItem[] {
  const words = filters.search.trim().toLowerCase();
  return items.filter(
    (item) =>
      (filters.state === 'all' || item.state === filters.state) &&
      (filters.assignee === 'all' ||
        (filters.assignee === 'unassigned' ? item.assignee === null : item.assignee === filters.assignee)) &&
      (!words || item.title.toLowerCase().includes(words)),
  );
}

export const fullName = (user: Pick<WorkspaceUser, 'firstName' | 'lastName' | 'email'>) => displayName(user);

/** The spec's state colours: open green, merged purple, anything else red. */
export function stateTone(state: ProjectItem['state']) {
  if (state === 'open') return 'text-green-700';
  if (state === 'merged') return 'text-purple-700';
  return 'text-red-700';
}
