import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { acceptInvitationsAs, createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

// The app server talks to the fake GitHub API started by playwright.config.ts, which serves the
// repository cohort-e2e/hello-world (3 pull requests, 2 issues).

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(navbar(page).getByRole('button', { name: /…|@/ })).toBeVisible();
}

test('link a repository, switch tabs, assign a pull request to a member; it stays after a reload', async ({
  page,
  request,
}) => {
  const owner = uniqueEmail();
  const member = uniqueEmail();
  await createAccount(request, owner);
  await createAccount(request, member, PASSWORD, { firstName: 'Grace', lastName: 'Hopper' });
  await logIn(page, owner);
  const name = `Projects ${Date.now()}`;
  const created = await page.request.post('/api/workspaces', {
    data: { name, description: 'Shipping things', members: [{ email: member, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitationsAs(member, { workspace: name });

  await page.goto(`/workspace/${encodeURIComponent(name)}`);
  await page.getByRole('link', { name: 'Explore Projects' }).click();
  await expect(page).toHaveURL(/\/workspace\/[0-9a-f-]+\/projects$/);
  await expect(page.getByRole('heading', { name: 'No Project Selected' })).toBeVisible();
  await expect(page.getByText('No projects added yet')).toBeVisible();

  const url = page.getByPlaceholder('github.com/owner/repo');
  await url.fill('https://github.com.evil.example/a/b');
  await page.getByRole('button', { name: 'Add Project' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid GitHub repository URL');

  await url.fill('github.com/cohort-e2e/hello-world');
  await page.getByRole('button', { name: 'Add Project' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'hello-world' })).toBeVisible();
  await expect(url).toHaveValue('');
  const sidebar = page.getByRole('navigation', { name: 'Projects' });
  await expect(sidebar.getByRole('button', { name: /hello-world/ })).toContainText('PRs: 3 · Issues: 2');
  await expect(page.getByText('Stars', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText(
    '128',
  );

  const panel = page.getByRole('tabpanel');
  await expect(page.getByRole('tab', { name: 'Pull Requests (3)' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('link')).toHaveText([
    'Add dark mode',
    'Try a different parser',
    'Fix the empty list crash',
  ]);
  await page.getByRole('tab', { name: 'Issues (2)' }).click();
  await expect(panel.getByRole('link')).toHaveText(['Document the setup', 'Crash when the list is empty']);
  await page.getByRole('tab', { name: 'Pull Requests (3)' }).click();

  const assignee = panel.getByLabel('Assignee for Add dark mode');
  await expect(assignee.locator('option')).toHaveText(['Unassigned', 'Ada Lovelace', 'Grace Hopper']);
  await assignee.selectOption({ label: 'Grace Hopper' });
  await expect(assignee.locator('option:checked')).toHaveText('Grace Hopper');

  await page.reload();
  const reloaded = page.getByRole('tabpanel').getByLabel('Assignee for Add dark mode');
  await expect(reloaded.locator('option:checked')).toHaveText('Grace Hopper');
  await page
    .getByRole('tabpanel')
    .getByLabel('Assignee', { exact: true })
    .selectOption({ label: 'Grace Hopper' });
  await expect(page.getByRole('tabpanel').getByRole('link')).toHaveText(['Add dark mode']);

  expect(await axeViolations(page)).toEqual([]);
});
