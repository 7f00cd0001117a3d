import type {
  Channel,
  MemberListItem,
  WorkspaceDetail,
  WorkspaceRole,
  WorkspaceSummary,
} from '@cohort/shared/workspaces';

/** Factories for the API shapes the workspace screens read (component tests only). */

export const ME = { _id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com' };
export const BOB = { _id: '00000000-0000-4000-8000-000000000002', email: 'bob@example.com' };

export const meResponse = { user: { ...ME, firstName: 'Ada', lastName: 'Lovelace' } };

export function aWorkspaceSummary(overrides: Partial<WorkspaceSummary> = {}): WorkspaceSummary {
  return {
    _id: 'w1',
    name: 'Apollo',
    description: 'Launch planning',
    createdBy: ME.email,
    members: [{ userId: ME._id, email: ME.email, role: 'admin', status: 'active' }],
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aChannel(overrides: Partial<Channel> = {}): Channel {
  return {
    _id: 'c1',
    workspaceId: 'w1',
    name: 'general',
    description: 'Company-wide chatter',
    private: false,
    members: [ME._id],
    createdBy: ME._id,
    createdAt: '2025-01-01T00:00:00.000Z',
    topic: '',
    archived: false,
    joined: true,
    starred: false,
    ...overrides,
  };
}

export function aWorkspace(role: WorkspaceRole, overrides: Partial<WorkspaceDetail> = {}): WorkspaceDetail {
  return { ...aWorkspaceSummary(), role, chat: { channels: [] }, ...overrides };
}

export function aMember(overrides: Partial<MemberListItem> = {}): MemberListItem {
  return {
    _id: ME._id,
    email: ME.email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'admin',
    status: 'active',
    ...overrides,
  };
}
