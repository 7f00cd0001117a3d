import { displayName } from '@cohort/shared/names';
import type { SwitcherData } from '@cohort/shared/switcher';
import type { SwitcherRows } from './switcher.service.ts';

/** The only shape the switcher's destinations leave the server in. */
export function presentSwitcher(rows: SwitcherRows): SwitcherData {
  return {
    channels: rows.channels.map((c) => ({
      _id: c.id,
      name: c.name,
      workspace: { _id: c.workspaceId, name: c.workspaceName },
      private: c.isPrivate,
      archived: c.archived,
    })),
    people: rows.people.map((p) => ({ _id: p.id, name: displayName(p), email: p.email })),
    workspaces: rows.workspaces.map((w) => ({ _id: w.id, name: w.name })),
  };
}
