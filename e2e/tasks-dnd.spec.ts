import { expect, type Page, test } from '@playwright/test';
import { createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
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
