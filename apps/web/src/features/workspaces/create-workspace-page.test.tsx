import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import CreateWorkspacePage from './create-workspace-page.tsx';
import { aWorkspace, meResponse } from './test-data.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage() {
  return renderRoutes(
    [
      { path: '/workspace/create', element: <CreateWorkspacePage /> },
      { path: '/dashboard', element: <h1>Your Workspaces</h1> },
    ],
    '/workspace/create',
  );
}

const emailInput = () => screen.getByRole('textbox', { name: 'Member e-mail' });
const roleSelect = () => screen.getByRole('combobox', { name: 'Role' }) as HTMLSelectElement;

describe('CreateWorkspacePage', () => {
  it('adds members as "e-mail — role", resets the input to empty with role viewer, and removes them', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: meResponse }) });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Basic Information' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Add Members' })).toBeTruthy();
    expect(roleSelect().value).toBe('viewer');
    expect(
      within(roleSelect())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Viewer', 'Editor', 'Admin']);

    // No e-mail, no member (SPEC §5).
    await userEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    expect(screen.queryByRole('list', { name: 'Members to add' })).toBeNull();

    await userEvent.type(emailInput(), 'bob@example.com');
    await userEvent.selectOptions(roleSelect(), 'editor');
    await userEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    const list = screen.getByRole('list', { name: 'Members to add' });
    expect(within(list).getByText('bob@example.com — Editor')).toBeTruthy();
    expect((emailInput() as HTMLInputElement).value).toBe('');
    expect(roleSelect().value).toBe('viewer');

    // Enter in the e-mail input adds too (and does not submit the form).
    await userEvent.type(emailInput(), 'carol@example.com{Enter}');
    expect(within(list).getByText('carol@example.com — Viewer')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Remove bob@example.com' }));
    expect(within(list).queryByText(/bob@example\.com/)).toBeNull();
  });

  it('refuses an invalid or repeated member e-mail with a message', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: meResponse }) });
    renderPage();
    await userEvent.type(emailInput(), 'not-an-email{Enter}');
    expect(screen.getByText('Enter a valid e-mail address')).toBeTruthy();
    await userEvent.clear(emailInput());
    await userEvent.type(emailInput(), 'bob@example.com{Enter}');
    await userEvent.type(emailInput(), 'BOB@example.com{Enter}');
    expect(screen.getByText('This e-mail is already in the list.')).toBeTruthy();
  });

  it('says "Name and description are required" and sends nothing when one is missing', async () => {
    const fetchMock = mockFetch({ 'GET /api/me': () => ({ json: meResponse }) });
    renderPage();
    await userEvent.type(screen.getByRole('textbox', { name: 'Workspace Name' }), 'Apollo');
    await userEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));

    expect(screen.getByRole('alert').textContent).toBe('Name and description are required');
    expect(screen.getByRole('textbox', { name: 'Description' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Workspace Name' }).getAttribute('aria-invalid')).toBeNull();
    expect(requestsOf(fetchMock).some((r) => r.route === 'POST /api/workspaces')).toBe(false);
  });

  it('clears the error once the fields are fixed: the missing one marked until it is filled', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: meResponse }) });
    renderPage();
    const name = screen.getByRole('textbox', { name: 'Workspace Name' });
    const description = screen.getByRole('textbox', { name: 'Description' });
    await userEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    expect(screen.getByRole('alert').textContent).toBe('Name and description are required');
    await userEvent.type(name, 'Apollo');
    // One field still missing: the message stays, only that field is marked.
    expect(screen.getByRole('alert').textContent).toBe('Name and description are required');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(description.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(description, 'Launch planning');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(description.getAttribute('aria-invalid')).toBeNull();
  });

  it('posts name, description and members, then goes to /dashboard', async () => {
    const fetchMock = mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'POST /api/workspaces': () => ({ status: 201, json: aWorkspace('admin') }),
    });
    const { router } = renderPage();
    await userEvent.type(screen.getByRole('textbox', { name: 'Workspace Name' }), '  Apollo ');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Launch planning');
    await userEvent.type(emailInput(), 'bob@example.com');
    await userEvent.selectOptions(roleSelect(), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Add Member' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));

    expect(await screen.findByRole('heading', { name: 'Your Workspaces' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    const post = requestsOf(fetchMock).find((r) => r.route === 'POST /api/workspaces');
    expect(post?.body).toEqual({
      name: 'Apollo',
      description: 'Launch planning',
      members: [{ email: 'bob@example.com', role: 'admin' }],
    });
  });

  it('shows the server message inline, or "Error creating workspace" when there is none', async () => {
    let answer: 'conflict' | 'offline' = 'conflict';
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'POST /api/workspaces': () => {
        if (answer === 'offline') throw new TypeError('Failed to fetch');
        return { status: 409, json: { message: 'A workspace with this name already exists' } };
      },
    });
    const { router } = renderPage();
    await userEvent.type(screen.getByRole('textbox', { name: 'Workspace Name' }), 'Apollo');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Launch planning');
    await userEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A workspace with this name already exists');
    expect(screen.getByRole('textbox', { name: 'Workspace Name' }).getAttribute('aria-invalid')).toBe('true');
    // Another name: the refusal of the old one goes.
    await userEvent.type(screen.getByRole('textbox', { name: 'Workspace Name' }), '2');
    expect(screen.queryByRole('alert')).toBeNull();

    answer = 'offline';
    await userEvent.click(screen.getByRole('button', { name: 'Create Workspace' }));
    expect(await screen.findByText('Error creating workspace')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/workspace/create');
  });
});
