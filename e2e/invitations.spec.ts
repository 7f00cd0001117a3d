import { expect, type Page, test } from '@playwright/test';
import { createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';
import { linkTo, waitForMail } from './mail.ts';

/** Invitations with consent (docs/accounts.md, "Invitations"): nobody joins without accepting. */

const uniqueName = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;
const workspaceUrl = (name: string) => `/workspace/${encodeURIComponent(name)}`;

async function logIn(page: Page, email: string) {
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('an admin invites; the invitee opens the e-mailed link, signs in, accepts and is a member', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = uniqueEmail();
  const invitee = uniqueEmail();
  await createAccount(request, admin);
  await createAccount(request, invitee, PASSWORD, { firstName: 'Grace', lastName: 'Hopper' });
  const name = uniqueName('Invite');

  // The admin creates a workspace and invites Grace from its settings.
  await page.goto('/login');
  await logIn(page, admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  const created = await page.request.post('/api/workspaces', {
    data: { name, description: 'Where invitations are tested', members: [] },
  });
  expect(created.status()).toBe(201);
  await page.goto(`${workspaceUrl(name)}/settings`);
  const form = page.getByRole('region', { name: 'Invite a member' });
  await form.getByRole('textbox', { name: 'E-mail' }).fill(invitee);
  await form.getByRole('combobox', { name: 'Role' }).selectOption('editor');
  await form.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeVisible();
  const pending = page.getByRole('table', { name: `Pending invitations to ${name}` });
  await expect(pending.getByRole('row', { name: new RegExp(invitee) })).toContainText('Editor');
  // Not a member before accepting.
  await expect(page.getByRole('table', { name: `Members of ${name}` })).not.toContainText(invitee);

  // Grace's inbox: the invitation, with its link.
  const mail = await waitForMail(invitee, { kind: 'invitation' });
  expect(mail.subject).toBe(`Ada Lovelace invited you to ${name} on Cohort`);
  const link = linkTo(mail, '/invitations');

  // Signed out, the link goes through the sign-in page and back to the invitation.
  const grace = await browser.newContext();
  const gracePage = await grace.newPage();
  await gracePage.goto(link);
  await expect(gracePage).toHaveURL(/\/login\?next=%2Finvitations%3Ffocus%3D/);
  await logIn(gracePage, invitee);
  await expect(gracePage).toHaveURL(/\/invitations\?focus=/);
  const card = gracePage.getByRole('listitem', { name });
  await expect(card).toHaveAttribute('aria-current', 'true');
  await expect(card).toContainText('Ada Lovelace');
  await expect(card).toContainText('Editor');
  await card.getByRole('button', { name: 'Accept' }).click();

  // A member: the workspace opens, with the role she was invited with.
  await expect(gracePage).toHaveURL(new RegExp(`${workspaceUrl(name)}$`));
  await expect(gracePage.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(gracePage.getByText('Your role: Editor')).toBeAttached();
  await navbar(gracePage).getByRole('link', { name: 'Workspaces' }).click();
  // Listed among her workspaces (the dashboard's card headings), once the dashboard replaced the page.
  await expect(gracePage.getByRole('heading', { level: 1, name: 'Your Workspaces' })).toBeVisible();
  await expect(gracePage.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();

  // The admin sees her among the members, and no pending invitation.
  await page.reload();
  await expect(page.getByRole('combobox', { name: `Role of ${invitee}` })).toHaveValue('editor');
  await expect(page.getByText('No pending invitations.')).toBeVisible();

  // Grace leaves again (after a confirmation): the workspace is gone from her list.
  await gracePage.goto(workspaceUrl(name));
  await gracePage.getByRole('button', { name: 'Leave workspace' }).click();
  const confirm = gracePage.getByRole('alertdialog', { name: `Leave ${name}?` });
  await confirm.getByRole('button', { name: 'Leave' }).click();
  await expect(gracePage).toHaveURL(/\/dashboard$/);
  await expect(gracePage.getByText('No workspaces found')).toBeVisible();
  await grace.close();
});

test('declining removes the invitation; the bell announced it', async ({ page, request }) => {
  const admin = uniqueEmail();
  const invitee = uniqueEmail();
  await createAccount(request, admin);
  await createAccount(request, invitee);
  const name = uniqueName('Decline');
  const login = await request.post('/api/login', { data: { email: admin, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const created = await request.post('/api/workspaces', {
    data: { name, description: 'Declined', members: [{ email: invitee, role: 'viewer' }] },
  });
  expect(created.status()).toBe(201);

  await page.goto('/login');
  await logIn(page, invitee);
  await expect(page).toHaveURL(/\/dashboard$/);
  const bell = navbar(page).getByRole('button', { name: /^Notifications/ });
  await bell.click();
  const item = page.getByRole('button', { name: /invited you to a workspace/ });
  await expect(item).toContainText(`${name} (as viewer)`);
  await item.click();
  await expect(page).toHaveURL(/\/invitations\?focus=/);
  const card = page.getByRole('listitem', { name });
  await card.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText('No pending invitations')).toBeVisible();
  await expect(navbar(page).getByRole('link', { name: /^Invitations/ })).toHaveCount(0);
  await page.goto(workspaceUrl(name));
  await expect(page.getByRole('alert').filter({ hasText: 'Workspace not found' })).toBeVisible();
});
