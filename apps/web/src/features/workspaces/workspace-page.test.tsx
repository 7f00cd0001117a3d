import type { WorkspaceDetail } from '@cohort/shared/workspaces';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import CreateChannelPage from './create-channel-page.tsx';
import { aChannel, aMember, aWorkspace, aWorkspaceSummary, BOB, ME, meResponse } from './test-data.ts';
import WorkspacePage from './workspace-page.tsx';

// The channel pane and the sidebar's unread counter open Socket.IO connections; here they are fakes.
vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

afterEach(() => {
  // Unmount while fetch is still stubbed: leaving a conversation flushes a pending read mark.
  cleanup();
  vi.unstubAllGlobals();
  openedSockets.length = 0;
});

function renderWorkspace(entry: string) {
  return renderRoutes(
    [
      { path: '/workspace/:workspaceName', element: <WorkspacePage /> },
      { path: '/workspace/:workspaceName/channel/:channelId', element: <WorkspacePage /> },
      { path: '/workspace/:workspaceName/create-channel', element: <CreateChannelPage /> },
    ],
    entry,
  );
}

const members = [
  aMember(),
  aMember({ _id: BOB._id, email: BOB.email, firstName: 'Bob', role: 'editor' }),
  aMember({ _id: null, email: 'carol@example.com', firstName: '', lastName: '', status: 'invited' }),
];

function workspaceApi(workspace: WorkspaceDetail, extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/me': () => ({ json: meResponse }),
    'GET /api/workspaces/Apollo': () => ({ json: workspace }),
    'GET /api/workspaces/Apollo/members': () => ({ json: members }),
    'GET /api/workspaces/Apollo/unread': () => ({ json: [] }),
    ...extra,
  });
}

describe('WorkspacePage: sidebar groups and the workspace switcher (issue 22)', () => {
  it('groups starred and joined channels, leaves out archived and unjoined ones, and links to browse', async () => {
    const workspace = aWorkspace('viewer', {
      chat: {
        channels: [
          aChannel({ _id: 'c1', name: 'general' }),
          aChannel({ _id: 'c2', name: 'design', starred: true }),
          aChannel({ _id: 'c3', name: 'random', joined: false }),
          aChannel({ _id: 'c4', name: 'old', archived: true }),
        ],
      },
    });
    workspaceApi(workspace, {
      'GET /api/workspaces': () => ({
        json: [aWorkspaceSummary(), aWorkspaceSummary({ _id: 'w2', name: 'Zeus' })],
      }),
      'GET /api/workspaces/Zeus': () => ({
        json: aWorkspace('viewer', {
          _id: 'w2',
          name: 'Zeus',
          chat: { channels: [aChannel({ _id: 'z1' })] },
        }),
      }),
      'GET /api/workspaces/Zeus/unread': () => ({
        json: [{ channelId: 'z1', workspaceId: 'w2', lastReadSeq: 0, lastSeq: 4, unread: 4, muted: false }],
      }),
      'GET /api/workspaces/Zeus/mentions': () => ({ json: [] }),
      'GET /api/workspaces/Apollo/mentions': () => ({ json: [] }),
      'GET /api/direct/unread': () => ({ json: [] }),
    });
    renderWorkspace('/workspace/Apollo');
    const sidebar = await screen.findByRole('navigation', { name: 'Channels' });
    const starred = within(sidebar).getByRole('list', { name: 'Starred' });
    expect(within(starred).getByRole('link', { name: /design/ })).toBeTruthy();
    const channels = within(sidebar).getByRole('list', { name: 'Channels' });
    expect(
      within(channels)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([expect.stringContaining('general')]);
    expect(within(sidebar).queryByRole('link', { name: /random|old/ })).toBeNull();
    expect(within(sidebar).getByRole('link', { name: 'Browse channels' }).getAttribute('href')).toBe(
      '/workspace/Apollo/browse',
    );

    const switcher = screen.getByRole('navigation', { name: 'Workspaces' });
    expect(await within(switcher).findByRole('link', { name: 'Zeus, 4 unread' })).toBeTruthy();
    expect(within(switcher).getByRole('link', { name: 'Apollo' }).getAttribute('aria-current')).toBe('page');
  });
});

describe('WorkspacePage', () => {
  it('shows the header, the channels and the prompt until a channel is chosen', async () => {
    workspaceApi(
      aWorkspace('editor', {
        chat: {
          channels: [
            aChannel(),
            aChannel({ _id: 'c2', name: 'design', description: 'Mockups', private: true }),
          ],
        },
      }),
    );
    renderWorkspace('/workspace/Apollo');
    expect(screen.getByRole('status').textContent).toBe('Loading workspace details...');

    expect(await screen.findByRole('heading', { level: 1, name: 'Apollo' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Explore Projects' }).getAttribute('href')).toBe(
      '/workspace/w1/projects',
    );
    expect(screen.getByRole('link', { name: 'Exit' }).getAttribute('href')).toBe('/dashboard');
    // Settings are for admins only.
    expect(screen.queryByRole('link', { name: 'Settings' })).toBeNull();

    const sidebar = screen.getByRole('navigation', { name: 'Channels' });
    const general = within(sidebar).getByRole('link', { name: /general/ });
    expect(general.getAttribute('href')).toBe('/workspace/Apollo/channel/c1');
    expect(general.textContent).toContain('Company-wide chatter');
    expect(general.getAttribute('aria-current')).toBeNull();
    expect(within(sidebar).getByRole('link', { name: /Private channel: design/ })).toBeTruthy();
    expect(screen.getByText('Select a channel to start chatting')).toBeTruthy();
    expect(screen.getByText('Launch planning')).toBeTruthy();
  });

  it('selects the channel of the URL, and says "Channel not found" for an unknown one', async () => {
    workspaceApi(aWorkspace('viewer', { chat: { channels: [aChannel()] } }));
    const { router } = renderWorkspace('/workspace/Apollo/channel/c1');
    const link = await screen.findByRole('link', { name: /general/ });
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('heading', { name: 'general Chat' })).toBeTruthy();
    expect(screen.queryByText('Select a channel to start chatting')).toBeNull();

    await router.navigate('/workspace/Apollo/channel/nope');
    expect(await screen.findByRole('heading', { name: 'Channel not found' })).toBeTruthy();
  });

  it('shows a viewer no "+ Create Channel"', async () => {
    workspaceApi(aWorkspace('viewer'));
    renderWorkspace('/workspace/Apollo');
    expect(await screen.findByText('No channels yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Create Channel/ })).toBeNull();
  });

  it('shows an admin the Settings link and "+ Create Channel"', async () => {
    workspaceApi(aWorkspace('admin'));
    renderWorkspace('/workspace/Apollo');
    expect(await screen.findByRole('link', { name: 'Settings' })).toHaveProperty(
      'pathname',
      '/workspace/Apollo/settings',
    );
    expect(screen.getByRole('button', { name: '+ Create Channel' })).toBeTruthy();
  });

  it('says "Workspace not found" when the workspace is not there for the reader (404)', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/workspaces/Apollo': () => ({ status: 404, json: { message: 'Workspace not found' } }),
    });
    renderWorkspace('/workspace/Apollo/channel/c1?message=m1&seq=3');
    expect((await screen.findByRole('alert')).textContent).toBe('Workspace not found');
    expect(screen.getByText(/you may not be a member of it/)).toBeTruthy();
  });

  it('says "Failed to load workspace" when reading it fails otherwise', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/workspaces/Apollo': () => ({ status: 500, json: { message: 'Internal error' } }),
    });
    renderWorkspace('/workspace/Apollo');
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load workspace');
  });
});

describe('Create channel modal', () => {
  async function openModal() {
    const opener = await screen.findByRole('button', { name: '+ Create Channel' });
    await userEvent.click(opener);
    return { opener, dialog: screen.getByRole('dialog', { name: 'Create Channel' }) };
  }

  it('is a labelled modal dialog that takes focus, closes on Escape and gives focus back', async () => {
    workspaceApi(aWorkspace('editor'));
    renderWorkspace('/workspace/Apollo');
    const { opener, dialog } = await openModal();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Channel name' })),
    );

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on Cancel and on an overlay click', async () => {
    workspaceApi(aWorkspace('editor'));
    renderWorkspace('/workspace/Apollo');
    let { dialog } = await openModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    ({ dialog } = await openModal());
    await userEvent.click(screen.getByTestId('dialog-overlay'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists the active members except yourself, by e-mail', async () => {
    workspaceApi(aWorkspace('editor'));
    renderWorkspace('/workspace/Apollo');
    const { dialog } = await openModal();
    expect(await within(dialog).findByRole('checkbox', { name: BOB.email })).toBeTruthy();
    expect(within(dialog).queryByRole('checkbox', { name: ME.email })).toBeNull();
    expect(within(dialog).queryByRole('checkbox', { name: 'carol@example.com' })).toBeNull();
    expect(within(dialog).getByRole('checkbox', { name: 'Private channel' })).toBeTruthy();
  });

  it('asks for a name and description and sends nothing without them', async () => {
    const fetchMock = workspaceApi(aWorkspace('editor'));
    renderWorkspace('/workspace/Apollo');
    const { dialog } = await openModal();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Channel name' }), 'random');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Channel' }));

    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Please provide a channel name and description.',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Description' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(requestsOf(fetchMock).some((r) => r.route.startsWith('POST'))).toBe(false);
  });

  it('creates the channel, closes, and opens it highlighted in the sidebar', async () => {
    const created = aChannel({
      _id: 'c9',
      name: 'random',
      description: 'Off-topic',
      members: [ME._id, BOB._id],
    });
    let workspace = aWorkspace('editor');
    const fetchMock = workspaceApi(workspace, {
      'GET /api/workspaces/Apollo': () => ({ json: workspace }),
      'POST /api/workspaces/Apollo/channels': () => {
        workspace = { ...workspace, chat: { channels: [created] } };
        return { status: 201, json: created };
      },
    });
    const { router } = renderWorkspace('/workspace/Apollo');
    const { dialog } = await openModal();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Channel name' }), 'random');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Off-topic');
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: BOB.email }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Private channel' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Channel' }));

    expect(await screen.findByRole('heading', { name: 'random Chat' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/workspace/Apollo/channel/c9');
    const sidebar = screen.getByRole('navigation', { name: 'Channels' });
    expect(
      within(sidebar)
        .getByRole('link', { name: /random/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    const post = requestsOf(fetchMock).find((r) => r.route === 'POST /api/workspaces/Apollo/channels');
    expect(post?.body).toEqual({
      name: 'random',
      description: 'Off-topic',
      members: [BOB._id],
      private: true,
    });
  });

  it('says "Failed to create channel" with the server message when the server refuses', async () => {
    workspaceApi(aWorkspace('editor'), {
      'POST /api/workspaces/Apollo/channels': () => ({
        status: 409,
        json: { message: 'A channel with this name already exists in this workspace' },
      }),
    });
    renderWorkspace('/workspace/Apollo');
    const { dialog } = await openModal();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Channel name' }), 'general');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Again');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Channel' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Failed to create channel');
    expect(alert.textContent).toContain('A channel with this name already exists in this workspace');
    expect(screen.getByRole('dialog')).toBeTruthy();
    // Said once, in the dialog: no toast repeating it behind the overlay. Control: a toast raised after
    // the failure has rendered, so one raised by the failure would have too.
    toast('Control toast');
    expect(await screen.findByText('Control toast')).toBeTruthy();
    expect(screen.getAllByText(/Failed to create channel/)).toHaveLength(1);
  });
});

describe('CreateChannelPage', () => {
  it('renders the form as a page; Cancel goes back to the workspace', async () => {
    workspaceApi(aWorkspace('editor'));
    const { router } = renderWorkspace('/workspace/Apollo/create-channel');
    expect(await screen.findByRole('textbox', { name: 'Channel name' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/workspace/Apollo');
  });

  it('tells a viewer that only editors and admins create channels', async () => {
    workspaceApi(aWorkspace('viewer'));
    renderWorkspace('/workspace/Apollo/create-channel');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only editors and admins can create channels in Apollo.',
    );
    expect(screen.queryByRole('button', { name: 'Create Channel' })).toBeNull();
  });
});

describe('Unread counts in the sidebar', () => {
  const bobSays = (seq: number, channel: string) => ({
    _id: `m${seq}`,
    seq,
    channel,
    content: `message ${seq}`,
    timestamp: '2025-01-01T10:00:00.000Z',
    clientId: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    sender: { _id: BOB._id, email: BOB.email, name: 'Bob' },
    rev: seq,
    editedAt: null,
    deleted: false,
    parentId: null,
    replyCount: 0,
    lastReplyAt: null,
    reactions: [],
  });

  const readState = (channelId: string, o: Record<string, unknown> = {}) => ({
    channelId,
    workspaceId: 'w1',
    lastReadSeq: 3,
    lastSeq: 3,
    unread: 0,
    muted: false,
    ...o,
  });

  it('counts from the server listing plus live top-level messages of others; a mark from another tab clears it', async () => {
    const design = aChannel({ _id: 'c2', name: 'design', description: 'Mockups' });
    const random = aChannel({ _id: 'c3', name: 'random', description: 'Off topic' });
    let listings = 0;
    const fetchMock = workspaceApi(
      aWorkspace('viewer', { chat: { channels: [aChannel(), design, random] } }),
      {
        'GET /api/workspaces/Apollo/channels/c1/messages': () => ({ json: [] }),
        'GET /api/workspaces/Apollo/unread': () => {
          listings += 1;
          return {
            json: [
              readState('c1'),
              // Bob wrote one top-level message past the mark (the server counted it).
              readState('c2', { lastSeq: 4, unread: 1 }),
              readState('c3', { lastSeq: 9, unread: 6, muted: true }),
            ],
          };
        },
      },
    );
    renderWorkspace('/workspace/Apollo/channel/c1');
    const sidebar = await screen.findByRole('navigation', { name: 'Channels' });
    // Two /chat connections (the open channel's and the sidebar's counter); /mesh only watches for a meeting.
    await waitFor(() => expect(openedSockets.filter((s) => s.namespace === '/chat').length).toBe(2));
    for (const socket of openedSockets.filter((s) => s.namespace === '/chat')) {
      socket.respond('joinChannel', () => ({ ok: true }));
      socket.serverConnect();
    }
    const counter = await waitFor(() => {
      const found = openedSockets.find((s) => s.sent('joinChannel').length === 3);
      expect(found).toBeDefined();
      return found as FakeSocket;
    });
    // Joined first, then the listing is fetched again, so nothing posted in between is missed.
    await waitFor(() => expect(listings).toBe(2));

    const designLink = within(sidebar).getByRole('link', { name: /design/ });
    await waitFor(() => expect(designLink.textContent).toContain('1 unread'));
    // Muted: dimmed, labelled, never counted.
    const randomLink = within(sidebar).getByRole('link', { name: /random/ });
    expect(randomLink.textContent).toContain('(muted)');
    expect(randomLink.textContent).not.toContain('unread');
    expect(randomLink.className).toContain('opacity-60');

    counter.push('newMessage', bobSays(5, 'c2'));
    expect(designLink.textContent).toContain('2 unread');
    // Counted once however often it arrives; thread replies, our own messages (another device), the
    // open channel and muted channels never count.
    counter.push('newMessage', bobSays(5, 'c2'));
    counter.push('newMessage', { ...bobSays(6, 'c2'), parentId: 'm5' });
    counter.push('newMessage', { ...bobSays(7, 'c2'), sender: { ...ME, name: 'Ada' } });
    counter.push('newMessage', bobSays(1, 'c1'));
    counter.push('newMessage', bobSays(10, 'c3'));
    expect(designLink.textContent).toContain('2 unread');
    expect(within(sidebar).getByRole('link', { name: /general/ }).textContent).not.toContain('unread');
    expect(randomLink.textContent).not.toContain('unread');

    // Read in another tab: the server pushes the new mark to every tab of this user.
    counter.push('readMarkChanged', readState('c2', { lastReadSeq: 7, lastSeq: 7, unread: 0 }));
    await waitFor(() => expect(designLink.textContent).not.toContain('unread'));
    counter.push('newMessage', bobSays(8, 'c2'));
    expect(designLink.textContent).toContain('1 unread');
    // No history is fetched to count.
    expect(requestsOf(fetchMock).filter((r) => r.route.includes('/c2/messages'))).toEqual([]);
  });
});

describe('WorkspacePage: leaving', () => {
  function renderWithDashboard() {
    return renderRoutes(
      [
        { path: '/workspace/:workspaceName', element: <WorkspacePage /> },
        { path: '/dashboard', element: <p>Dashboard</p> },
      ],
      '/workspace/Apollo',
    );
  }

  it('leaves after a confirmation and goes to the dashboard', async () => {
    const fetchMock = workspaceApi(aWorkspace('viewer'), {
      'POST /api/workspaces/Apollo/leave': () => ({ json: null }),
      'GET /api/workspaces': () => ({ json: [] }),
    });
    const { router } = renderWithDashboard();
    await userEvent.click(await screen.findByRole('button', { name: 'Leave workspace' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Leave Apollo?' });
    // Cancelling leaves nothing.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(requestsOf(fetchMock).map((r) => r.route)).not.toContain('POST /api/workspaces/Apollo/leave');

    await userEvent.click(screen.getByRole('button', { name: 'Leave workspace' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Leave Apollo?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain('POST /api/workspaces/Apollo/leave');
  });

  it("shows the server's last-admin refusal in the dialog and stays", async () => {
    const message =
      'You are the last admin of this workspace: make someone else an admin first, or delete the workspace';
    workspaceApi(aWorkspace('admin'), {
      'POST /api/workspaces/Apollo/leave': () => ({ status: 409, json: { message } }),
    });
    const { router } = renderWithDashboard();
    await userEvent.click(await screen.findByRole('button', { name: 'Leave workspace' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Leave Apollo?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Leave' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe(message);
    expect(router.state.location.pathname).toBe('/workspace/Apollo');
  });
});
