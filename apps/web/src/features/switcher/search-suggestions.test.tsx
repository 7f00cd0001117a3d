import type { SwitcherData } from '@cohort/shared/switcher';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Navbar } from '../../app/navbar.tsx';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import { recordRecent } from './recent.ts';

const data: SwitcherData = {
  channels: [
    { _id: 'c1', name: 'general', workspace: { _id: 'w1', name: 'Acme' }, private: false, archived: false },
    {
      _id: 'c2',
      name: 'design-reviews',
      workspace: { _id: 'w2', name: 'Beta' },
      private: true,
      archived: false,
    },
  ],
  people: [{ _id: 'p1', name: 'Grace Hopper', email: 'grace@example.com' }],
  workspaces: [{ _id: 'w1', name: 'Acme' }],
};

function Where() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

function renderNavbar() {
  const fetchMock = mockFetch({
    'GET /api/me': () => ({
      json: { user: { _id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'L' } },
    }),
    'GET /api/switcher': () => ({ json: data }),
    // The signed-in controls of the bar.
    'GET /api/notifications': () => ({ json: { notifications: [], unread: 0 } }),
  });
  const page = (
    <>
      <Navbar />
      <Where />
    </>
  );
  renderRoutes([{ path: '*', element: page }], '/dashboard');
  return fetchMock;
}

const where = () => screen.getByRole('status', { name: 'Location' }).textContent;
const box = () => screen.getByRole('combobox', { name: 'Search' });

// The navbar loads the suggestions (and the query scope) lazily: transform them once, before the clocks run.
beforeAll(async () => {
  await Promise.all([import('./search-suggestions.tsx'), import('../../app/session.tsx')]);
}, 30_000);

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the search box's suggestions", () => {
  it('suggests channels, people and recent searches as one types, and Enter opens the picked one', async () => {
    recordRecent('u1', 'searches', 'design budget');
    const user = userEvent.setup();
    const fetchMock = renderNavbar();
    await user.click(box());
    await user.keyboard('des');
    const listbox = await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 5000 });
    await waitFor(() => expect(listbox.textContent).toContain('design-reviews'), { timeout: 5000 });
    await waitFor(() => expect(box().getAttribute('aria-expanded')).toBe('true'));
    expect(box().getAttribute('aria-controls')).toBe(listbox.id);
    const texts = within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(texts).toEqual(['Channel design-reviews Beta', 'Recent search design budget']);
    expect(box().getAttribute('aria-activedescendant')).toBeNull();

    await user.keyboard('{ArrowDown}');
    expect(box().getAttribute('aria-activedescendant')).toBe(within(listbox).getAllByRole('option')[0]?.id);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    // Wrapped to the first again.
    expect(box().getAttribute('aria-activedescendant')).toBe(within(listbox).getAllByRole('option')[0]?.id);
    await user.keyboard('{Enter}');
    expect(where()).toBe('/workspace/Beta/channel/c2');
    expect((box() as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(requestsOf(fetchMock).filter((r) => r.route === 'GET /api/switcher')).toHaveLength(1);
  });

  it('re-runs a recent search, and Enter with nothing picked runs the full search as typed', async () => {
    recordRecent('u1', 'searches', 'grace notes');
    const user = userEvent.setup();
    renderNavbar();
    await user.click(box());
    await user.keyboard('grac');
    const listbox = await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 5000 });
    await waitFor(() => expect(listbox.textContent).toContain('Grace Hopper'), { timeout: 5000 });
    // (The avatar's initials are aria-hidden.)
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['GHPerson Grace Hopper grace@example.com', 'Recent search grace notes']);
    await user.keyboard('{ArrowUp}{Enter}');
    expect(where()).toBe('/search?q=grace+notes');
    expect((box() as HTMLInputElement).value).toBe('grace notes');

    await user.clear(box());
    await user.keyboard('grac');
    await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 5000 });
    await user.keyboard('{Enter}');
    expect(where()).toBe('/search?q=grac');
  });

  it('closes with Escape and keeps the text', async () => {
    const user = userEvent.setup();
    renderNavbar();
    await user.click(box());
    await user.keyboard('gen');
    await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 5000 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect((box() as HTMLInputElement).value).toBe('gen');
    expect(box().getAttribute('aria-expanded')).toBe('false');
  });
});
