import type { WorkspaceInvitation } from '@cohort/shared/invitations';
import type { MemberListItem } from '@cohort/shared/workspaces';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import { aMember, aWorkspace, BOB, ME, meResponse } from './test-data.ts';
import WorkspaceSettingsPage from './workspace-settings-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderSettings() {
  return renderRoutes(
    [{ path: '/workspace/:workspaceName/settings', element: <WorkspaceSettingsPage /> }],
    '/workspace/Apollo/settings',
  );
}

function settingsApi(role: 'admin' | 'editor', extra: Parameters<typeof mockFetch>[0] = {}) {
  let members: MemberListItem[] = [
    aMember(),
    aMember({ _id: BOB._id, email: BOB.email, firstName: 'Bob', lastName: 'Babbage', role: 'viewer' }),
    aMember({
      _id: null,
      email: 'carol@example.com',
      firstName: '',
      lastName: '',
      role: 'editor',
      status: 'invited',
    }),
  ];
  // The pending invitations as GET …/invitations answers them (the invited rows of the members).
  const invitations = (): WorkspaceInvitation[] =>
    members
      .filter((m) => m.status === 'invited')
      .map((m) => ({
        _id: `inv-${m.email}`,
        email: m.email,
        role: m.role,
        invitedBy: { name: 'Ada Lovelace', email: ME.email },
        createdAt: '2025-01-01T00:00:00.000Z',
        expiresAt: m.email.startsWith('old') ? '2025-01-08T00:00:00.000Z' : '2099-01-08T00:00:00.000Z',
        expired: m.email.startsWith('old'),
      }));
  const fetchMock = mockFetch({
    'GET /api/me': () => ({ json: meResponse }),
    'GET /api/workspaces/Apollo': () => ({ json: aWorkspace(role) }),
    'GET /api/workspaces/Apollo/members': () => ({ json: members }),
    'GET /api/workspaces/Apollo/invitations': () => ({ json: invitations() }),
    'POST /api/workspaces/Apollo/invitations/carol%40example.com/resend': () => ({
      json: invitations().find((i) => i.email === 'carol@example.com'),
    }),
    'DELETE /api/workspaces/Apollo/invitations/carol%40example.com': () => {
      members = members.filter((m) => m.email !== 'carol@example.com');
      return { json: null };
    },
    'GET /api/workspaces/Apollo/storage': () => ({
      json: { bytes: 3 * 1024 * 1024, files: 7, quotaBytes: 5120 * 1024 * 1024 },
    }),
    [`PATCH /api/workspaces/Apollo/members/${BOB._id}`]: (body) => {
      const { role: next } = body as { role: MemberListItem['role'] };
      members = members.map((m) => (m._id === BOB._id ? { ...m, role: next } : m));
      return { json: members[1] };
    },
    [`DELETE /api/workspaces/Apollo/members/${BOB._id}`]: () => {
      members = members.filter((m) => m._id !== BOB._id);
      // The test helper cannot build a bodiless 204 response; the client ignores the body either way.
      return { json: null };
    },
    'POST /api/workspaces/Apollo/members': (body) => {
      const added = aMember({
        _id: null,
        ...(body as object),
        firstName: '',
        lastName: '',
        status: 'invited',
      });
      members = [...members, added];
      return { status: 201, json: added };
    },
    ...extra,
  });
  return fetchMock;
}

const row = (email: string) => screen.getByRole('row', { name: new RegExp(email) });
const invitationsTable = () => screen.findByRole('table', { name: 'Pending invitations to Apollo' });

describe('WorkspaceSettingsPage', () => {
  it('lists members with name and role, and pending invitations in their own table', async () => {
    settingsApi('admin');
    renderSettings();
    const members = await screen.findByRole('table', { name: 'Members of Apollo' });
    expect(within(row(BOB.email)).getByText('Bob Babbage')).toBeTruthy();
    expect(within(members).queryByText('carol@example.com')).toBeNull();
    const pending = await invitationsTable();
    const carol = within(pending).getByRole('row', { name: /carol@example\.com/ });
    expect(within(carol).getByText('Editor')).toBeTruthy();
    expect(within(carol).getByText('Ada Lovelace')).toBeTruthy();
  });

  it('resends and revokes a pending invitation', async () => {
    const fetchMock = settingsApi('admin');
    renderSettings();
    await invitationsTable();
    await userEvent.click(screen.getByRole('button', { name: 'Resend the invitation to carol@example.com' }));
    await waitFor(() =>
      expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
        'POST /api/workspaces/Apollo/invitations/carol%40example.com/resend',
      ),
    );
    expect(await screen.findByText('Invitation sent again to carol@example.com')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke the invitation to carol@example.com' }));
    expect(await screen.findByText('No pending invitations.')).toBeTruthy();
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
      'DELETE /api/workspaces/Apollo/invitations/carol%40example.com',
    );
  });

  it('marks expired invitations', async () => {
    settingsApi('admin');
    renderSettings();
    await invitationsTable();
    const form = (await screen.findByRole('region', { name: 'Invite a member' })) as HTMLElement;
    await userEvent.type(within(form).getByRole('textbox', { name: 'E-mail' }), 'old@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    const expired = await screen.findByRole('row', { name: /old@example\.com/ });
    expect(within(expired).getByText('Expired')).toBeTruthy();
  });

  it('changes a role with PATCH', async () => {
    const fetchMock = settingsApi('admin');
    renderSettings();
    const select = await screen.findByRole('combobox', { name: `Role of ${BOB.email}` });
    await userEvent.selectOptions(select, 'editor');
    await waitFor(() => expect((select as HTMLSelectElement).value).toBe('editor'));
    const patch = requestsOf(fetchMock).find((r) => r.route.startsWith('PATCH'));
    expect(patch?.body).toEqual({ role: 'editor' });
  });

  it('shows the last-admin rule when the server refuses a demotion', async () => {
    settingsApi('admin', {
      [`PATCH /api/workspaces/Apollo/members/${meResponse.user._id}`]: () => ({
        status: 409,
        json: { message: 'A workspace needs at least one admin' },
      }),
    });
    renderSettings();
    const select = await screen.findByRole('combobox', { name: `Role of ${meResponse.user.email}` });
    await userEvent.selectOptions(select, 'viewer');
    expect((await screen.findByRole('alert')).textContent).toBe('A workspace needs at least one admin');
    await waitFor(() => expect((select as HTMLSelectElement).value).toBe('admin'));
  });

  it('removes a member after a confirmation', async () => {
    const fetchMock = settingsApi('admin');
    renderSettings();
    await userEvent.click(await screen.findByRole('button', { name: `Remove ${BOB.email}` }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove this member?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: new RegExp(BOB.email) })).toBeNull());
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
      `DELETE /api/workspaces/Apollo/members/${BOB._id}`,
    );
  });

  it('invites a member by e-mail and role', async () => {
    const fetchMock = settingsApi('admin');
    renderSettings();
    const form = (await screen.findByRole('region', { name: 'Invite a member' })) as HTMLElement;
    await userEvent.type(within(form).getByRole('textbox', { name: 'E-mail' }), 'dan@example.com');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'editor');
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    // Not a member: an invitation, listed as pending.
    expect(await screen.findByText('Invitation sent to dan@example.com')).toBeTruthy();
    const pending = await invitationsTable();
    expect(await within(pending).findByRole('row', { name: /dan@example\.com/ })).toBeTruthy();
    const post = requestsOf(fetchMock).find((r) => r.route === 'POST /api/workspaces/Apollo/members');
    expect(post?.body).toEqual({ email: 'dan@example.com', role: 'editor' });
  });

  it('is not offered to members who are not admins', async () => {
    settingsApi('editor');
    renderSettings();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only admins of Apollo can manage its members.',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows admins what the workspace’s shared files take', async () => {
    settingsApi('admin');
    renderSettings();
    const section = await screen.findByRole('region', { name: 'File storage' });
    await waitFor(() => expect(section.textContent).toContain('3.0 MB of 5.0 GB used, in 7 files'));
  });
});

describe('WorkspaceSettingsPage: presence', () => {
  it("shows each member's presence beside their e-mail", async () => {
    settingsApi('admin', {
      'GET /api/workspaces/Apollo/presence': () => ({ json: { [ME._id]: 'online', [BOB._id]: 'away' } }),
    });
    renderSettings();
    await screen.findByRole('table', { name: 'Members of Apollo' });
    expect(await within(row(BOB.email)).findByRole('img', { name: 'away' })).toBeTruthy();
    expect(within(row(ME.email)).getByRole('img', { name: 'online' })).toBeTruthy();
  });
});
