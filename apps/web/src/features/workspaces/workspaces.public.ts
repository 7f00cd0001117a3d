// The workspaces feature's public entry: other features import only what is listed here (biome.json).
export { ROLE_LABELS } from './role-select.tsx';
export { WorkspaceSubpage } from './workspace-subpage.tsx';
export {
  channelPath,
  membersQuery,
  workspacePath,
  workspaceQuery,
  workspacesQuery,
} from './workspaces.queries.ts';
