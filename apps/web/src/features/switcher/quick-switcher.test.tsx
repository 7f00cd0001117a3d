import type { SwitcherData } from '@cohort/shared/switcher';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import { readRecent, recordRecent } from './recent.ts';
import { SwitcherHotkey } from './switcher-hotkey.tsx';

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
  workspaces: [
    { _id: 'w1', name: 'Acme' },
    { _id: 'w2', name: 'Beta' },
  ],
};

function Where() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

function renderPage() {
  const fetchMock = mockFetch({ 'GET /api/switcher': () => ({ json: data }) });
  const page = (
    <>
      <label>
        Message <textarea />
      </label>
      <SwitcherHotkey userId="u1" />
      <Where />
    </>
  );
  const utils = renderRoutes([{ path: '*', element: page }], '/dashboard');
  return { ...utils, fetchMock };
}

const where = () => screen.getByRole('status', { name: 'Location' }).textContent;

// The dialog is loaded on the first Ctrl+K: transform it once, before the clocks run.
beforeAll(async () => {
  await import('./quick-switcher.tsx');
}, 30_000);

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the quick switcher', () => {
  it('opens with Ctrl+K from a text field, finds fuzzily and opens the pick with the keyboard', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderPage();
    const composer = screen.getByRole('textbox', { name: 'Message' });
    await user.click(composer);
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Quick switcher' }, { timeout: 5000 });
    const box = within(dialog).getByRole('combobox', { name: 'Go to' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    // The key did not type into the composer.
    expect((composer as HTMLTextAreaElement).value).toBe('');

    await within(dialog).findAllByRole('option', {}, { timeout: 5000 });
    await user.keyboard('dsrv');
    const listbox = within(dialog).getByRole('listbox');
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    const options = within(listbox).getAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]?.textContent).toContain('design-reviews');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    expect(options[0]?.getAttribute('aria-selected')).toBe('true');
    expect(
      within(options[0] as HTMLElement)
        .getAllByText(/./, { selector: 'mark' })
        .map((m) => m.textContent),
    ).toEqual(['d', 's', 'r', 'v']);

    await user.keyboard('{Enter}');
    expect(where()).toBe('/workspace/Beta/channel/c2');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(readRecent('u1', 'destinations')[0]).toBe('channel:c2');
    // One request for the data, none per keystroke.
    expect(requestsOf(fetchMock).filter((r) => r.route === 'GET /api/switcher')).toHaveLength(1);
  });

  it('moves with Up and Down (wrapping), lists recent destinations first, and opens a DM', async () => {
    const user = userEvent.setup();
    recordRecent('u1', 'destinations', 'channel:c1');
    recordRecent('u1', 'destinations', 'person:grace@example.com');
    renderPage();
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Quick switcher' }, { timeout: 5000 });
    const options = await within(dialog).findAllByRole('option', {}, { timeout: 5000 });
    expect(
      options.map((o) =>
        o.textContent
          ?.split(/Channel|Person|Workspace/)[1]
          ?.trim()
          .slice(0, 12),
      ),
    ).toEqual(['Grace Hopper', 'generalAcme', 'design-revie', 'Acme', 'Beta']);
    const box = within(dialog).getByRole('combobox');
    const activeText = () =>
      document.getElementById(box.getAttribute('aria-activedescendant') ?? '')?.textContent;
    expect(activeText()).toContain('Grace Hopper');
    await user.keyboard('{ArrowUp}');
    expect(activeText()).toContain('Beta');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeText()).toContain('general');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(where()).toBe('/chat?with=grace%40example.com');
  });

  it('closes with Escape and gives the focus back; Ctrl+K toggles it; Tab stays inside', async () => {
    const user = userEvent.setup();
    renderPage();
    const composer = screen.getByRole('textbox', { name: 'Message' });
    await user.click(composer);
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Quick switcher' }, { timeout: 5000 });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('combobox')));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(composer);

    await user.keyboard('{Control>}k{/Control}');
    const again = await screen.findByRole('dialog', { name: 'Quick switcher' }, { timeout: 5000 });
    await waitFor(() => expect(document.activeElement).toBe(within(again).getByRole('combobox')));
    await user.tab();
    expect(again.contains(document.activeElement)).toBe(true);
    await user.tab();
    expect(again.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(composer);
  });

  it('says so when nothing matches, and records the pages visited as recent', async () => {
    const user = userEvent.setup();
    const { router } = renderPage();
    await router.navigate('/workspace/Acme/channel/c1');
    await waitFor(() => expect(readRecent('u1', 'destinations')).toEqual(['channel:c1']));
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Quick switcher' }, { timeout: 5000 });
    await within(dialog).findAllByRole('option', {}, { timeout: 5000 });
    await user.keyboard('zzzz');
    expect(within(dialog).getByRole('status').textContent).toBe('No matches');
    expect(within(dialog).getByRole('combobox').getAttribute('aria-expanded')).toBe('false');
  });
});
