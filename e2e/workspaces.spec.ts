import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { acceptInvitationsAs, createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

/** Workspace names are unique on the instance, so every test makes its own. */
const uniqueName = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;

async function logIn(page: Page, email: string) {
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logInFromHome(page: Page, email: string) {
  await page.goto('/login');
  await logIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(navbar(page).getByRole('button', { name: /…|@/ })).toBeVisible();
}

/** Signs the API client in (its cookie jar keeps the session) and creates a workspace through the API. */
async function createWorkspaceViaApi(
  request: APIRequestContext,
  admin: string,
  workspace: { name: string; description: string; members: Array<{ email: string; role: string }> },
) {
  const login = await request.post('/api/login', { data: { email: admin, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const created = await request.post('/api/workspaces', { data: workspace });
  expect(created.status()).toBe(201);
  return (await created.json()) as { _id: string; name: string };
}

const workspaceUrl = (name: string) => `/workspace/${encodeURIComponent(name)}`;

test('create a workspace inviting two people, enter it, create a channel, see it on the profile', async ({
  page,
  request,
}) => {
  const admin = uniqueEmail();
  const bob = uniqueEmail();
  const newcomer = uniqueEmail(); // no account yet: invited like Bob, joins once they sign up and accept
  await createAccount(request, admin);
  await createAccount(request, bob);
  const name = uniqueName('Apollo');

  await logInFromHome(page, admin);
  await navbar(page).getByRole('link', { name: 'Create Workspace' }).click();
  await expect(page).toHaveURL(/\/workspace\/create$/);
  await expect(page.getByRole('heading', { name: 'Basic Information' })).toBeVisible();

  // Missing description: refused on the page, nothing sent.
  await page.getByRole('textbox', { name: 'Workspace Name' }).fill(name);
  await page.getByRole('main').getByRole('button', { name: 'Create Workspace' }).click();
  await expect(page.getByRole('alert')).toHaveText('Name and description are required');

  await page.getByRole('textbox', { name: 'Description' }).fill('Launch planning for Apollo');
  const memberEmail = page.getByRole('textbox', { name: 'Member e-mail' });
  const role = page.getByRole('combobox', { name: 'Role' });
  await memberEmail.fill(bob);
  await role.selectOption('editor');
  await page.getByRole('button', { name: 'Add Member' }).click();
  await expect(memberEmail).toHaveValue('');
  await expect(role).toHaveValue('viewer');
  await memberEmail.fill(newcomer);
  await page.getByRole('button', { name: 'Add Member' }).click();
  const toAdd = page.getByRole('list', { name: 'Members to add' });
  await expect(toAdd.getByRole('listitem')).toHaveText([`${bob} — Editor`, `${newcomer} — Viewer`]);
  await page.getByRole('main').getByRole('button', { name: 'Create Workspace' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(`Workspace ${name} created. Invitation sent to 2 people`)).toBeVisible();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
  // Nobody joins by being listed: both are invited (the admin sees the invitations).
  await expect(card.locator('dd').nth(1)).toContainText(`${bob} (invited)`);
  await expect(card.locator('dd').nth(1)).toContainText(`${newcomer} (invited)`);

  // Bob accepts; the newcomer has not signed up yet.
  await acceptInvitationsAs(bob, { workspace: name });
  await page.reload();
  await expect(card.locator('dd')).toHaveText([admin, `${admin}, ${bob}, ${newcomer} (invited)`]);

  await card.getByRole('link', { name: 'Enter Workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`${workspaceUrl(name)}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Select a channel to start chatting')).toBeVisible();
  const sidebar = page.getByRole('navigation', { name: 'Channels' });
  await expect(sidebar.getByText('No channels yet.')).toBeVisible();

  await sidebar.getByRole('button', { name: '+ Create Channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Channel' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Channel name' })).toBeFocused();
  await dialog.getByRole('textbox', { name: 'Channel name' }).fill('launch');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Everything about launch day');
  await dialog.getByRole('checkbox', { name: bob }).check();
  await dialog.getByRole('button', { name: 'Create Channel' }).click();

  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`${workspaceUrl(name)}/channel/[0-9a-f-]{36}$`));
  const channelLink = sidebar.getByRole('link', { name: /launch/ });
  await expect(channelLink).toHaveAttribute('aria-current', 'page');
  await expect(channelLink).toContainText('Everything about launch day');
  await expect(page.getByRole('heading', { name: 'launch Chat' })).toBeVisible();

  // A reload lands on the same channel, still selected.
  await page.reload();
  await expect(sidebar.getByRole('link', { name: /launch/ })).toHaveAttribute('aria-current', 'page');

  await page.goto('/profile');
  const created = page.getByRole('region', { name: 'Workspaces Created by You' });
  await expect(created.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(created).toContainText('Launch planning for Apollo');
});

test('an admin changes a member role in the workspace settings', async ({ page, request }) => {
  const admin = uniqueEmail();
  const bob = uniqueEmail();
  await createAccount(request, admin);
  await createAccount(request, bob);
  const name = uniqueName('Settings');
  await createWorkspaceViaApi(request, admin, {
    name,
    description: 'Roles and members',
    members: [{ email: bob, role: 'viewer' }],
  });
  await acceptInvitationsAs(bob, { workspace: name });

  await logInFromHome(page, admin);
  await page.goto(workspaceUrl(name));
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${workspaceUrl(name)}/settings$`));
  const bobsRole = page.getByRole('combobox', { name: `Role of ${bob}` });
  await expect(bobsRole).toHaveValue('viewer');
  await bobsRole.selectOption('editor');
  await expect(page.getByText(`${bob} is now editor`)).toBeVisible();

  const response = await page.request.get(`/api/workspaces/${encodeURIComponent(name)}/members`);
  const members = (await response.json()) as Array<{ email: string; role: string }>;
  expect(members.find((m) => m.email === bob)?.role).toBe('editor');

  // The last admin cannot step down: the server's rule is shown and the role stays.
  await page.getByRole('combobox', { name: `Role of ${admin}` }).selectOption('viewer');
  await expect(page.getByRole('alert')).toHaveText('A workspace needs at least one admin');
  await expect(page.getByRole('combobox', { name: `Role of ${admin}` })).toHaveValue('admin');
});

test('an invited viewer signs up, accepts from the navbar count and sees no + Create Channel', async ({
  page,
  request,
}) => {
  const admin = uniqueEmail();
  const viewer = uniqueEmail();
  await createAccount(request, admin);
  const name = uniqueName('Viewers');
  const workspace = await createWorkspaceViaApi(request, admin, {
    name,
    description: 'Read-only for most',
    members: [{ email: viewer, role: 'viewer' }],
  });
  const channel = await request.post(`/api/workspaces/${workspace._id}/channels`, {
    data: { name: 'announcements', description: 'News from the admins' },
  });
  expect(channel.status()).toBe(201);

  // Signing up (and verifying the address) joins nothing; the navbar counts the invitation.
  await createAccount(request, viewer);
  await logInFromHome(page, viewer);
  await navbar(page).getByRole('link', { name: 'Workspaces' }).click();
  await expect(page.getByText('No workspaces found')).toBeVisible();
  await navbar(page).getByRole('link', { name: 'Invitations (1 pending)' }).click();
  await expect(page).toHaveURL(/\/invitations$/);
  const invitation = page.getByRole('listitem', { name });
  await expect(invitation).toContainText('Viewer');
  await invitation.getByRole('button', { name: 'Accept' }).click();
  await expect(page).toHaveURL(new RegExp(`${workspaceUrl(name)}$`));
  await expect(navbar(page).getByRole('link', { name: /^Invitations/ })).toHaveCount(0);

  const sidebar = page.getByRole('navigation', { name: 'Channels' });
  await expect(sidebar.getByRole('link', { name: /announcements/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /Create Channel/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);

  // The server refuses too, and the create-channel page says why.
  const refused = await page.request.post(`/api/workspaces/${workspace._id}/channels`, {
    data: { name: 'sneaky', description: 'Should not exist' },
  });
  expect(refused.status()).toBe(403);
  await page.goto(`${workspaceUrl(name)}/create-channel`);
  await expect(page.getByRole('alert')).toHaveText(`Only editors and admins can create channels in ${name}.`);
});

test('a signed-out visitor opening /dashboard logs in and comes back to it', async ({ page, request }) => {
  const admin = uniqueEmail();
  await createAccount(request, admin);
  const name = uniqueName('Return');
  await createWorkspaceViaApi(request, admin, { name, description: 'Back again', members: [] });

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await logIn(page, admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
});

test('workspace names with HTML render as text', async ({ page, request }) => {
  const admin = uniqueEmail();
  await createAccount(request, admin);
  const name = `<img src=x onerror="window.__xss=1"> ${Math.random().toString(36).slice(2, 8)}`;
  await createWorkspaceViaApi(request, admin, { name, description: '<b>bold?</b>', members: [] });

  await logInFromHome(page, admin);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  await page
    .getByRole('listitem')
    .filter({ hasText: name })
    .getByRole('link', { name: 'Enter Workspace' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('<b>bold?</b>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('main img').count()).toBe(0);
});

test('no serious or critical axe violations on /dashboard and the workspace page', async ({
  page,
  request,
}) => {
  const admin = uniqueEmail();
  const bob = uniqueEmail();
  await createAccount(request, admin);
  await createAccount(request, bob);
  const name = uniqueName('Axe');
  const workspace = await createWorkspaceViaApi(request, admin, {
    name,
    description: 'Accessibility check',
    members: [
      { email: bob, role: 'editor' },
      { email: uniqueEmail(), role: 'viewer' },
    ],
  });
  await acceptInvitationsAs(bob, { workspace: name });
  for (const [channelName, isPrivate] of [
    ['general', false],
    ['secret', true],
  ] as const) {
    const response = await request.post(`/api/workspaces/${workspace._id}/channels`, {
      data: { name: channelName, description: `The ${channelName} channel`, private: isPrivate },
    });
    expect(response.status()).toBe(201);
  }

  await logInFromHome(page, admin);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.goto(workspaceUrl(name));
  await expect(page.getByText('Select a channel to start chatting')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page
    .getByRole('navigation', { name: 'Channels' })
    .getByRole('link', { name: /general/ })
    .click();
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: '+ Create Channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Channel' });
  await expect(dialog.getByRole('checkbox', { name: bob })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  // Escape closes the modal and focus returns to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: '+ Create Channel' })).toBeFocused();
});

test('no serious or critical axe violations on create workspace, settings and profile', async ({
  page,
  request,
}) => {
  const admin = uniqueEmail();
  await createAccount(request, admin);
  const name = uniqueName('Axe settings');
  await createWorkspaceViaApi(request, admin, {
    name,
    description: 'Accessibility check',
    members: [{ email: uniqueEmail(), role: 'editor' }],
  });
  await logInFromHome(page, admin);

  await page.goto('/workspace/create');
  await page.getByRole('main').getByRole('button', { name: 'Create Workspace' }).click();
  await expect(page.getByRole('alert')).toHaveText('Name and description are required');
  expect(await axeViolations(page)).toEqual([]);

  await page.goto(`${workspaceUrl(name)}/settings`);
  await expect(page.getByRole('table', { name: `Members of ${name}` })).toBeVisible();
  await expect(page.getByRole('table', { name: `Pending invitations to ${name}` })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit profile' }).click();
  await expect(page.getByRole('textbox', { name: 'First name' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
});
