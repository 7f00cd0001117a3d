import type { Project, ProjectItem, WorkspaceUser } from '@cohort/shared/projects';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import { aWorkspace, BOB, ME, meResponse } from '../workspaces/test-data.ts';
import ProjectsPage from './projects-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function anItem(overrides: Partial<ProjectItem> = {}): ProjectItem {
  return {
    id: 'i1',
    number: 1,
    title: 'Add login',
    url: 'https://github.com/octo/app/pull/1',
    state: 'open',
    author: 'octocat',
    createdAt: '2025-03-04T10:00:00.000Z',
    updatedAt: '2025-03-04T10:00:00.000Z',
    assignee: null,
    ...overrides,
  };
}

function aProject(overrides: Partial<Project> = {}): Project {
  return {
    _id: 'p1',
    workspaceId: 'w1',
    name: 'app',
    fullName: 'octo/app',
    repositoryUrl: 'https://github.com/octo/app',
    stars: 12,
    forks: 3,
    lastSynced: '2025-03-05T08:00:00.000Z',
    lastSyncError: null,
    addedBy: ME.email,
    pullRequests: [
      anItem(),
      anItem({ id: 'i2', number: 2, title: 'Fix crash on start', state: 'merged', assignee: BOB._id }),
      anItem({ id: 'i3', number: 3, title: 'Try another parser', state: 'closed' }),
    ],
    issues: [
      anItem({ id: 'i4', number: 4, title: 'Docs are stale', url: 'https://github.com/octo/app/issues/4' }),
    ],
    ...overrides,
  };
}

const users: WorkspaceUser[] = [
  { _id: ME._id, firstName: 'Ada', lastName: 'Lovelace', email: ME.email },
  { _id: BOB._id, firstName: 'Bob', lastName: 'Builder', email: BOB.email },
];

function projectsApi(
  opts: { role?: WorkspaceRole; projects?: Project[] } = {},
  extra: Parameters<typeof mockFetch>[0] = {},
) {
  return mockFetch({
    'GET /api/me': () => ({ json: meResponse }),
    'GET /api/workspaces/w1': () => ({ json: aWorkspace(opts.role ?? 'editor') }),
    'GET /api/workspaces/w1/projects': () => ({ json: opts.projects ?? [aProject()] }),
    'GET /api/workspaces/w1/users': () => ({ json: users }),
    ...extra,
  });
}

const renderPage = (entry = '/workspace/w1/projects') =>
  renderRoutes([{ path: '/workspace/:workspaceId/projects', element: <ProjectsPage /> }], entry);

const sidebar = () => screen.getByRole('navigation', { name: 'Projects' });

describe('ProjectsPage', () => {
  it('shows the sidebar with counts and No Project Selected until one is chosen', async () => {
    projectsApi({
      projects: [aProject(), aProject({ _id: 'p2', name: 'site', pullRequests: [], issues: [] })],
    });
    renderPage();
    const first = await within(await screen.findByRole('navigation', { name: 'Projects' })).findByRole(
      'button',
      {
        name: /app/,
      },
    );
    expect(first.textContent).toContain('PRs: 3 · Issues: 1');
    expect(within(sidebar()).getByRole('button', { name: /site/ }).textContent).toContain(
      'PRs: 0 · Issues: 0',
    );
    expect(screen.getByRole('heading', { name: 'No Project Selected' })).toBeTruthy();
    expect(screen.getByPlaceholderText('github.com/owner/repo')).toBeTruthy();
  });

  it('says No projects added yet for an empty workspace, and No projects when the list fails', async () => {
    projectsApi({ projects: [] });
    const { unmount } = renderPage();
    expect(
      await within(await screen.findByRole('navigation')).findByText('No projects added yet'),
    ).toBeTruthy();
    unmount();
    vi.unstubAllGlobals();
    projectsApi(
      {},
      { 'GET /api/workspaces/w1/projects': () => ({ status: 500, json: { message: 'boom' } }) },
    );
    renderPage();
    expect(await screen.findByText('No projects')).toBeTruthy();
  });

  it('shows the project: numbers, tabs with counts (pull requests first), state colours and links out', async () => {
    projectsApi();
    renderPage('/workspace/w1/projects?project=p1');
    expect(await screen.findByRole('heading', { level: 2, name: 'app' })).toBeTruthy();
    expect(screen.getByText('Stars').nextSibling?.textContent).toBe('12');
    expect(screen.getByText('Forks').nextSibling?.textContent).toBe('3');
    expect(screen.getByText('Last synced').nextSibling?.textContent).toBe(
      new Date('2025-03-05T08:00:00.000Z').toLocaleString(),
    );
    const prTab = screen.getByRole('tab', { name: 'Pull Requests (3)' });
    expect(prTab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Issues (1)' }).getAttribute('aria-selected')).toBe('false');

    const panel = screen.getByRole('tabpanel');
    const link = within(panel).getByRole('link', { name: 'Add login' });
    expect(link.getAttribute('href')).toBe('https://github.com/octo/app/pull/1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(
      within(panel).getByText(
        new RegExp(`#1 opened on ${new Date('2025-03-04T10:00:00.000Z').toLocaleDateString()}`, 'u'),
      ),
    ).toBeTruthy();
    const tones = [...panel.querySelectorAll('[data-state]')].map((el) => [
      el.getAttribute('data-state'),
      el.className,
    ]);
    expect(tones).toEqual([
      ['open', expect.stringContaining('text-green-700')],
      ['merged', expect.stringContaining('text-purple-700')],
      ['closed', expect.stringContaining('text-red-700')],
    ]);
    const select = within(panel).getByLabelText('Assignee for Fix crash on start') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Unassigned',
      'Ada Lovelace',
      'Bob Builder',
    ]);
    expect(select.value).toBe(BOB._id);

    await userEvent.click(screen.getByRole('tab', { name: 'Issues (1)' }));
    expect(within(screen.getByRole('tabpanel')).getByRole('link', { name: 'Docs are stale' })).toBeTruthy();
  });

  it('resets the tab to pull requests when another project is chosen', async () => {
    projectsApi({
      projects: [aProject(), aProject({ _id: 'p2', name: 'site', pullRequests: [], issues: [] })],
    });
    renderPage('/workspace/w1/projects?project=p1');
    await userEvent.click(await screen.findByRole('tab', { name: 'Issues (1)' }));
    await userEvent.click(within(sidebar()).getByRole('button', { name: /site/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'site' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Pull Requests (0)' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('No pull requests found')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Issues (0)' }));
    expect(screen.getByText('No issues found')).toBeTruthy();
  });

  it('filters by state and assignee and searches by title', async () => {
    projectsApi();
    renderPage('/workspace/w1/projects?project=p1');
    const panel = await screen.findByRole('tabpanel');
    const titles = () =>
      within(screen.getByRole('tabpanel'))
        .queryAllByRole('link')
        .map((a) => a.textContent);
    expect(titles()).toEqual(['Add login', 'Fix crash on start', 'Try another parser']);

    await userEvent.selectOptions(within(panel).getByLabelText('State'), 'merged');
    expect(titles()).toEqual(['Fix crash on start']);
    await userEvent.selectOptions(within(panel).getByLabelText('State'), 'all');
    await userEvent.selectOptions(within(panel).getByLabelText('Assignee'), 'unassigned');
    expect(titles()).toEqual(['Add login', 'Try another parser']);
    await userEvent.type(within(panel).getByLabelText('Search by title'), 'PARSER');
    expect(titles()).toEqual(['Try another parser']);
    await userEvent.selectOptions(within(panel).getByLabelText('Assignee'), BOB._id);
    expect(titles()).toEqual([]);
    expect(screen.getByText('No pull requests found')).toBeTruthy();
  });

  it('changes an assignee only after the server accepts it', async () => {
    let answer: { status: number; json: unknown } = { status: 500, json: { message: 'nope' } };
    const fetchMock = projectsApi({}, { 'PATCH /api/projects/p1/pullrequest/i1/assign': () => answer });
    renderPage('/workspace/w1/projects?project=p1');
    const select = (await screen.findByLabelText('Assignee for Add login')) as HTMLSelectElement;

    await userEvent.selectOptions(select, BOB._id);
    expect(await screen.findByText('Failed to assign item')).toBeTruthy();
    expect(select.value).toBe('');

    answer = { status: 200, json: anItem({ assignee: BOB._id }) };
    await userEvent.selectOptions(select, BOB._id);
    await waitFor(() => expect(select.value).toBe(BOB._id));
    expect(within(sidebar()).getByRole('button', { name: /app/ })).toBeTruthy();
    const sent = requestsOf(fetchMock).filter((r) => r.route.startsWith('PATCH'));
    expect(sent.map((r) => r.body)).toEqual([{ userId: BOB._id }, { userId: BOB._id }]);
  });

  it('validates the URL, shows the server message or Failed to add project, and selects the new project', async () => {
    let answer: { status: number; json: unknown } = {
      status: 404,
      json: { message: 'Repository not found or not accessible' },
    };
    const added = aProject({ _id: 'p9', name: 'new-repo', fullName: 'octo/new-repo' });
    const fetchMock = projectsApi(
      {},
      {
        'POST /api/projects': () => answer,
        // After the link, the reload lists it.
        'GET /api/workspaces/w1/projects': () => ({ json: answer.status === 201 ? [added] : [] }),
      },
    );
    renderPage();
    const input = await screen.findByPlaceholderText('github.com/owner/repo');
    const add = screen.getByRole('button', { name: 'Add Project' });

    await userEvent.click(add);
    expect(screen.getByRole('alert').textContent).toBe('Please enter a GitHub repository URL');
    await userEvent.type(input, 'https://github.com@evil.example/a/b');
    await userEvent.click(add);
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid GitHub repository URL');
    expect(requestsOf(fetchMock).some((r) => r.route === 'POST /api/projects')).toBe(false);

    await userEvent.clear(input);
    await userEvent.type(input, 'github.com/octo/new-repo');
    await userEvent.click(add);
    expect((await screen.findByRole('alert')).textContent).toBe('Repository not found or not accessible');

    answer = { status: 500, json: 'not json' };
    await userEvent.click(add);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Failed to add project'));

    answer = { status: 201, json: added };
    await userEvent.click(add);
    expect(await screen.findByRole('heading', { level: 2, name: 'new-repo' })).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');
    expect(requestsOf(fetchMock).find((r) => r.route === 'POST /api/projects')?.body).toEqual({
      repositoryUrl: 'github.com/octo/new-repo',
      workspaceId: 'w1',
    });
  });

  it('shows Adding... while the project is being added', async () => {
    let release: () => void = () => {};
    const fetchMock = projectsApi({ projects: [] });
    const original = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'POST') await new Promise<void>((resolve) => (release = resolve));
      return original ? original(input, init) : new Response('{}');
    });
    renderPage();
    await userEvent.type(await screen.findByPlaceholderText('github.com/owner/repo'), 'github.com/octo/app');
    await userEvent.click(screen.getByRole('button', { name: 'Add Project' }));
    expect(((await screen.findByRole('button', { name: 'Adding...' })) as HTMLButtonElement).disabled).toBe(
      true,
    );
    release();
  });

  it('refreshes a project and shows a failed sync with the data kept', async () => {
    const failing = aProject({ lastSyncError: 'GitHub could not be reached. Please try again later' });
    let synced = false;
    projectsApi(
      { projects: [aProject()] },
      {
        'POST /api/projects/p1/sync': () => {
          synced = true;
          return { status: 502, json: { message: 'GitHub could not be reached. Please try again later' } };
        },
        'GET /api/workspaces/w1/projects': () => ({ json: [synced ? failing : aProject()] }),
      },
    );
    renderPage('/workspace/w1/projects?project=p1');
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText(/The last sync failed: GitHub could not be reached/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Pull Requests (3)' })).toBeTruthy();
  });

  it('lets viewers read but not add, assign or refresh', async () => {
    projectsApi({ role: 'viewer' });
    renderPage('/workspace/w1/projects?project=p1');
    expect(await screen.findByRole('heading', { level: 2, name: 'app' })).toBeTruthy();
    expect(screen.queryByPlaceholderText('github.com/owner/repo')).toBeNull();
    expect((screen.getByLabelText('Assignee for Add login') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
