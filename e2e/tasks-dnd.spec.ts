import { expect, type Page, test } from '@playwright/test';
import { acceptInvitationsAs, createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(navbar(page).getByRole('button', { name: /…|@/ })).toBeVisible();
}

const sections = (page: Page) => page.getByRole('navigation', { name: 'Taskboard sections' });
const list = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The card titles of a list, top to bottom. */
const cardTitles = (page: Page, name: string) =>
  list(page, name)
    .locator('li[data-task-id] > div > button')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')));

async function openBoards(page: Page) {
  await page.goto('/task');
  await sections(page).getByRole('button', { name: 'Boards' }).click();
  await expect(page.getByRole('button', { name: 'Add another list' })).toBeVisible();
}

/** Lists and tasks through the API (the browser's session), then the board. */
async function seedBoard(page: Page, lists: Record<string, string[]>) {
  for (const [name, tasks] of Object.entries(lists)) {
    const created = await page.request.post('/api/tasklists', { data: { title: name } });
    expect(created.status()).toBe(201);
    for (const title of tasks) {
      const task = await page.request.post('/api/tasks', { data: { title, Tasklist: name } });
      expect(task.status()).toBe(201);
    }
  }
  await openBoards(page);
}

test('a card dragged with the mouse to another list stays there', async ({ page, request }) => {
  const email = uniqueEmail();
  await createAccount(request, email);
  await logIn(page, email);
  await seedBoard(page, { Backlog: ['Write docs', 'Fix bug'], Doing: ['Review'] });
  await expect.poll(() => cardTitles(page, 'Backlog')).toEqual(['Write docs', 'Fix bug']);

  await page.dragAndDrop(
    '[aria-label="Backlog"] li[data-task-id]:first-child',
    // Onto the list itself (not a card): the card goes to the list's end.
    '[aria-label="Doing"] h2',
  );
  await expect.poll(() => cardTitles(page, 'Doing')).toEqual(['Review', 'Write docs']);
  await expect.poll(() => cardTitles(page, 'Backlog')).toEqual(['Fix bug']);

  await page.reload();
  await sections(page).getByRole('button', { name: 'Boards' }).click();
  await expect.poll(() => cardTitles(page, 'Doing')).toEqual(['Review', 'Write docs']);
  await expect.poll(() => cardTitles(page, 'Backlog')).toEqual(['Fix bug']);
});

test('a card reordered with the keyboard keeps its place after a reload', async ({ page, request }) => {
  const email = uniqueEmail();
  await createAccount(request, email);
  await logIn(page, email);
  await seedBoard(page, { Backlog: ['First', 'Second', 'Third'], Doing: [] });
  await expect.poll(() => cardTitles(page, 'Backlog')).toEqual(['First', 'Second', 'Third']);

  const handle = page.getByRole('button', { name: 'Move First', exact: true });
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('dnd-announcer')).toContainText('Picked up First');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('dnd-announcer')).toHaveText('Moved First to Backlog, position 2 of 3.');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('dnd-announcer')).toHaveText('Moved First to Backlog, position 3 of 3.');
  await expect(page.getByRole('button', { name: 'Move First', exact: true })).toBeFocused();
  await page.keyboard.press('Space');
  await expect.poll(() => cardTitles(page, 'Backlog')).toEqual(['Second', 'Third', 'First']);

  await page.reload();
  await sections(page).getByRole('button', { name: 'Boards' }).click();
  await expect.poll(() => cardTitles(page, 'Backlog')).toEqual(['Second', 'Third', 'First']);
});

test('an assignee is notified and marks the notification read', async ({ page, browser, request }) => {
  const ownerEmail = uniqueEmail();
  const graceEmail = uniqueEmail();
  await createAccount(request, ownerEmail);
  await createAccount(request, graceEmail, PASSWORD, { firstName: 'Grace', lastName: 'Hopper' });
  await logIn(page, ownerEmail);
  const workspace = await page.request.post('/api/workspaces', {
    data: {
      name: `Tasks ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Assignments',
      members: [{ email: graceEmail, role: 'editor' }],
    },
  });
  expect(workspace.status()).toBe(201);
  // Grace joins (accepts the invitation) so that she can be assigned.
  await acceptInvitationsAs(graceEmail, { workspace: ((await workspace.json()) as { _id: string })._id });
  await seedBoard(page, { Backlog: ['Ship it'] });

  await list(page, 'Backlog').getByRole('button', { name: 'Ship it', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Ship it' });
  await dialog.getByRole('button', { name: 'Assignees', exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'Grace Hopper' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Grace Hopper' })).toBeChecked();
  await expect(dialog.getByRole('region', { name: 'Activity' })).toContainText('changed the assignees');

  const grace = await browser.newContext();
  const gracePage = await grace.newPage();
  await logIn(gracePage, graceEmail);
  await gracePage.goto('/task');
  const notificationsNav = sections(gracePage).getByRole('button', { name: /Notifications/ });
  await expect(notificationsNav.getByTestId('unread-badge')).toHaveText('1 unread');
  await notificationsNav.click();
  const item = gracePage.getByRole('listitem').filter({ hasText: 'Ada Lovelace assigned you "Ship it"' });
  await expect(item).toHaveAttribute('data-unread', 'true');
  await item.getByRole('button', { name: 'Mark as read' }).click();
  await expect(item).not.toHaveAttribute('data-unread');
  await expect(notificationsNav.getByTestId('unread-badge')).toHaveCount(0);

  // The task is also under Assigned to me.
  await sections(gracePage).getByRole('button', { name: 'Assigned to me' }).click();
  await expect(gracePage.getByRole('button', { name: 'Ship it', exact: true })).toBeVisible();
  await grace.close();
});
