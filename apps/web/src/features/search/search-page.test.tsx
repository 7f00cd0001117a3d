import type { SearchResults } from '@cohort/shared/search';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Navbar } from '../../app/navbar.tsx';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import SearchPage from './search-page.tsx';

const empty: SearchResults = {
  query: { words: [] },
  messages: [],
  nextCursor: null,
  channels: [],
  tasks: [],
  people: [],
};

const found: SearchResults = {
  ...empty,
  query: { words: ['deploy'], in: 'general' },
  messages: [
    {
      kind: 'channel',
      _id: 'm1',
      seq: 7,
      timestamp: '2025-01-02T10:00:00.000Z',
      sender: { _id: 'u2', email: 'bob@example.com', name: 'Bob Builder' },
      snippet: [
        { text: 'Deploying', match: true },
        { text: ' <b>tonight</b> with **care**, @[Ada Lovelace](ada@example.com)', match: false },
      ],
      parentId: null,
      channel: { _id: 'c1', name: 'general', private: false },
      workspace: { _id: 'w1', name: 'Acme' },
    },
  ],
  tasks: [{ _id: 't1', title: [{ text: 'Deploy', match: true }], listTitle: 'Todo', archived: false }],
};

const me = { user: { _id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' } };

function renderSearch(entry: string) {
  return renderRoutes(
    [
      {
        path: '/search',
        element: (
          <>
            <Navbar />
            <SearchPage />
          </>
        ),
      },
      { path: '/workspace/:workspaceName/channel/:channelId', element: <h1>Channel view</h1> },
      {
        path: '/',
        element: <Navbar />,
      },
    ],
    entry,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('SearchPage', () => {
  it('lists grouped results with the matches marked, as text, linking to the message in context', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: me }), 'GET /api/search': () => ({ json: found }) });
    renderSearch('/search?q=deploy%20in%3A%23general');
    const messages = await screen.findByRole('region', { name: 'Messages' });
    const link = within(messages).getByRole('link');
    expect(link.getAttribute('href')).toBe('/workspace/Acme/channel/c1?message=m1&seq=7');
    expect(within(link).getByText('Deploying').tagName).toBe('MARK');
    // The snippet is text: markup in a message is shown, never interpreted.
    expect(link.textContent).toContain('<b>tonight</b>');
    expect(link.querySelector('b')).toBeNull();
    // …and reads as the message does once rendered: no Markdown markers, mentions by name.
    expect(link.textContent).toContain('with care, @Ada Lovelace');
    expect(link.textContent).not.toContain('**');
    const tasks = screen.getByRole('region', { name: 'Tasks' });
    expect(within(tasks).getByRole('link').getAttribute('href')).toBe('/tasks/t1');
    expect(screen.getByText('in: #general')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Search' }) as HTMLInputElement).value).toBe(
      'deploy in:#general',
    );
  });

  it('says No results when nothing matches', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: me }), 'GET /api/search': () => ({ json: empty }) });
    renderSearch('/search?q=nothing');
    expect(await screen.findByText('No results')).toBeTruthy();
  });

  it('shows a malformed filter without asking the server', async () => {
    const fetchMock = mockFetch({ 'GET /api/me': () => ({ json: me }) });
    renderSearch('/search?q=after%3Ayesterday');
    expect((await screen.findByRole('alert')).textContent).toMatch(/YYYY-MM-DD/);
    expect(requestsOf(fetchMock).some((r) => r.route === 'GET /api/search')).toBe(false);
  });
});

describe('Navbar search box', () => {
  it('submits to the search page', async () => {
    const fetchMock = mockFetch({
      'GET /api/me': () => ({ json: me }),
      'GET /api/search': () => ({ json: empty }),
    });
    renderSearch('/');
    await userEvent.type(screen.getByRole('combobox', { name: 'Search' }), 'zeppelin budget{Enter}');
    expect(await screen.findByText('No results')).toBeTruthy();
    const url = fetchMock.mock.calls.map(([input]) => String(input)).find((u) => u.includes('/api/search'));
    expect(new URL(url ?? '', 'http://localhost').searchParams.get('q')).toBe('zeppelin budget');
  });
});
