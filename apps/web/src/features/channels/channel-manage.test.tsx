import type { BrowseChannel, ChannelMemberItem } from '@cohort/shared/channels';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { aChannel, aMember, BOB, ME, meResponse } from '../workspaces/test-data.ts';
import { BrowseChannels } from './browse-channels.tsx';
import { ChannelDetailsDialog } from './channel-details-dialog.tsx';
import { channelAbilities } from './channel-manage.queries.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const aBrowseRow = (overrides: Partial<BrowseChannel> = {}): BrowseChannel => ({
  _id: 'c1',
  name: 'general',
  description: 'Company-wide chatter',
  topic: '',
  private: false,
  archived: false,
  memberCount: 1,
  joined: false,
  ...overrides,
});

describe('channelAbilities', () => {
  it('offers what the server allows: rename to creators and admins, the topic to editors, archive to admins', () => {
    const mine = aChannel({ createdBy: ME._id });
    const theirs = aChannel({ createdBy: BOB._id });
    expect(channelAbilities('editor', mine, ME._id)).toMatchObject({
      rename: true,
      topic: true,
      archive: false,
    });
    expect(channelAbilities('editor', theirs, ME._id)).toMatchObject({ rename: false, topic: true });
    expect(channelAbilities('viewer', mine, ME._id)).toMatchObject({ rename: false, topic: false });
    expect(channelAbilities('admin', theirs, ME._id)).toMatchObject({ rename: true, archive: true });
    // Archived: nothing but unarchiving.
    expect(channelAbilities('admin', aChannel({ archived: true }), ME._id)).toMatchObject({
      rename: false,
      topic: false,
      archive: true,
      join: false,
    });
    // Members of private channels are managed by admins; open ones are joined.
    expect(channelAbilities('admin', aChannel({ private: true }), ME._id).manageMembers).toBe(true);
    expect(channelAbilities('admin', aChannel(), ME._id).manageMembers).toBe(false);
    expect(channelAbilities('viewer', aChannel({ joined: false }), ME._id)).toMatchObject({
      join: true,
      leave: false,
    });
  });
});

describe('BrowseChannels', () => {
  it('lists channels with joined, archived and member counts; Join joins and refreshes', async () => {
    let joined = false;
    const fetchMock = mockFetch({
      'GET /api/workspaces/Apollo/channels/browse': () => ({
        json: [
          aBrowseRow({ joined, memberCount: joined ? 2 : 1, topic: 'Say hi' }),
          aBrowseRow({ _id: 'c2', name: 'old', archived: true, memberCount: 3 }),
        ],
      }),
      'POST /api/workspaces/Apollo/channels/c1/join': () => {
        joined = true;
        return { json: aChannel({ joined: true }) };
      },
    });
    renderAt('/workspace/Apollo/browse', <BrowseChannels workspaceName="Apollo" />);
    const general = await screen.findByRole('listitem', { name: 'general' });
    expect(general.textContent).toContain('1 member');
    expect(general.textContent).toContain('Say hi');
    expect(general.textContent).not.toContain('Joined');
    const old = screen.getByRole('listitem', { name: 'old' });
    expect(old.textContent).toContain('Archived');
    expect(old.textContent).toContain('3 members');
    expect(within(old).queryByRole('button')).toBeNull();

    await userEvent.click(within(general).getByRole('button', { name: 'Join general' }));
    await waitFor(() => expect(general.textContent).toContain('Joined'));
    expect(general.textContent).toContain('2 members');
    expect(within(general).getByRole('button', { name: 'Leave general' })).toBeTruthy();
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
      'POST /api/workspaces/Apollo/channels/c1/join',
    );

    // Filtering by name or topic.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter channels' }), 'zzz');
    expect(await screen.findByText('No channel matches.')).toBeTruthy();
  });
});

const channelMembers: ChannelMemberItem[] = [
  { _id: ME._id, email: ME.email, firstName: 'Me', lastName: 'Myself', role: 'admin', isCreator: true },
  { _id: BOB._id, email: BOB.email, firstName: 'Bob', lastName: 'Builder', role: 'viewer', isCreator: false },
];

function detailsApi(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/me': () => ({ json: meResponse }),
    'GET /api/workspaces/Apollo/channels/c1/members': () => ({ json: channelMembers }),
    'GET /api/workspaces/Apollo/members': () => ({
      json: [aMember(), aMember({ _id: 'u3', email: 'cy@example.com', firstName: 'Cy', lastName: 'Young' })],
    }),
    'GET /api/workspaces/Apollo/presence': () => ({ json: {} }),
    ...extra,
  });
}

describe('ChannelDetailsDialog', () => {
  it('shows a viewer the topic, description and members with roles, and nothing to change', async () => {
    detailsApi();
    renderAt(
      '/x',
      <ChannelDetailsDialog
        workspaceName="Apollo"
        channel={aChannel({ topic: 'Launch', createdBy: BOB._id })}
        workspaceRole="viewer"
        userId={BOB._id}
        onClose={() => {}}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: '#general' });
    expect(dialog.textContent).toContain('Launch');
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /Archive/ })).toBeNull();
    expect(await within(dialog).findByText(/Bob Builder/)).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Members (2)' })).toBeTruthy();
    expect(dialog.textContent).toContain('Admin · creator');
  });

  it('lets an admin change only what changed, checks it with the shared schema first, and archive', async () => {
    const fetchMock = detailsApi({
      'PATCH /api/workspaces/Apollo/channels/c1': () => ({ json: aChannel({ topic: 'Ship it' }) }),
      'POST /api/workspaces/Apollo/channels/c1/archive': () => ({ json: aChannel({ archived: true }) }),
      'GET /api/workspaces/Apollo': () => ({ json: {} }),
    });
    const onClose = vi.fn();
    renderAt(
      '/x',
      <ChannelDetailsDialog
        workspaceName="Apollo"
        channel={aChannel()}
        workspaceRole="admin"
        userId={ME._id}
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: '#general' });
    const topic = within(dialog).getByRole('textbox', { name: 'Topic' });
    // A control character never leaves the browser.
    await userEvent.click(topic);
    await userEvent.paste('tab\there');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('must not contain control characters')).toBeTruthy();
    expect(requestsOf(fetchMock).some((r) => r.route.startsWith('PATCH'))).toBe(false);

    await userEvent.clear(topic);
    await userEvent.type(topic, 'Ship it');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(requestsOf(fetchMock).find((r) => r.route.startsWith('PATCH'))?.body).toEqual({
        topic: 'Ship it',
      }),
    );

    await userEvent.click(within(dialog).getByRole('button', { name: 'Archive channel' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
      'POST /api/workspaces/Apollo/channels/c1/archive',
    );
  });

  it('lets an admin add and remove people of a private channel', async () => {
    const fetchMock = detailsApi({
      'POST /api/workspaces/Apollo/channels/c1/members': () => ({ json: channelMembers }),
      [`DELETE /api/workspaces/Apollo/channels/c1/members/${BOB._id}`]: () => ({ status: 204, json: null }),
      'GET /api/workspaces/Apollo': () => ({ json: {} }),
    });
    renderAt(
      '/x',
      <ChannelDetailsDialog
        workspaceName="Apollo"
        channel={aChannel({ private: true })}
        workspaceRole="admin"
        userId={ME._id}
        onClose={() => {}}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: '#general' });
    const add = await within(dialog).findByRole('combobox', { name: 'Add people' });
    await userEvent.selectOptions(add, 'u3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(
        requestsOf(fetchMock).find((r) => r.route.endsWith('/c1/members') && r.route.startsWith('POST'))
          ?.body,
      ).toEqual({
        userIds: ['u3'],
      }),
    );
    // Nobody removes themselves here (that is Leave); others have a Remove button.
    expect(within(dialog).queryByRole('button', { name: 'Remove Me Myself' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Bob Builder' }));
    await waitFor(() =>
      expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
        `DELETE /api/workspaces/Apollo/channels/c1/members/${BOB._id}`,
      ),
    );
  });
});
