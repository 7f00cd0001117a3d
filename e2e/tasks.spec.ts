import { expect, type Page, test } from '@playwright/test';
import { createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

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

async function openBoards(page: Page) {
  await page.goto('/task');
  await expect(page.getByText('Pick a section from the sidebar to get started.')).toBeVisible();
  await sections(page).getByRole('button', { name: 'Boards' }).click();
  await expect(page.getByRole('button', { name: 'Add another list' })).toBeVisible();
}

async function addList(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add another list' }).click();
  const input = page.getByRole('textbox', { name: 'List name' });
  await input.fill(name);
  await input.press('Enter');
  await expect(list(page, name)).toBeVisible();
}

// The longest journey of the file (two tabs, every card feature): run beside the calls journeys it
// needs more than 60 s.
test.describe.configure({ timeout: 180_000 });

test('a task card from creation to archive and restore, seen live by a second tab', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail();
  await createAccount(request, email);
  await logIn(page, email);
  await openBoards(page);

  // A blank list name is refused on the page.
  await page.getByRole('button', { name: 'Add another list' }).click();
  await page.getByRole('button', { name: 'Add List' }).click();
  await expect(page.getByRole('alert')).toHaveText('List name cannot be empty.');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await addList(page, 'Backlog');
  await addList(page, 'Doing');
  const backlog = list(page, 'Backlog');
  const doing = list(page, 'Doing');
  await expect(backlog.getByText('No tasks available')).toBeVisible();

  await backlog.getByRole('button', { name: 'Add Task' }).click();
  const form = backlog.getByRole('form', { name: 'Add Task' });
  await form.getByRole('textbox', { name: 'Title' }).fill('Prepare the launch');
  await form.getByRole('textbox', { name: 'Description' }).fill('Slides and demo');
  await expect(form.getByRole('combobox', { name: 'Priority' })).toHaveValue('Medium');
  await form.getByRole('combobox', { name: 'Priority' }).selectOption('High');
  await form.getByRole('button', { name: 'Add Task' }).click();
  const card = backlog.getByRole('button', { name: 'Prepare the launch', exact: true });
  await expect(card).toContainText('High');

  // A second tab of the same user.
  const other = await context.newPage();
  await openBoards(other);
  await expect(
    list(other, 'Backlog').getByRole('button', { name: 'Prepare the launch', exact: true }),
  ).toBeVisible();

  await card.click();
  const dialog = page.getByRole('dialog', { name: 'Prepare the launch', exact: true });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Slides and demo')).toBeVisible();

  // Description: Cancel restores, Save writes.
  await dialog.getByRole('button', { name: 'Edit description' }).click();
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Nope');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByText('Slides and demo')).toBeVisible();
  await dialog.getByRole('button', { name: 'Edit description' }).click();
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Slides, demo and a dry run');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Slides, demo and a dry run')).toBeVisible();

  // Comment with Enter; the author's name shows.
  const comment = dialog.getByRole('textbox', { name: 'Write a comment' });
  await comment.fill('Booked the room');
  await comment.press('Enter');
  const comments = dialog.getByRole('region', { name: 'Comments' });
  // Wait for the box to clear first: until then its own text also matches 'Booked the room'.
  await expect(comment).toHaveValue('');
  await expect(comments.getByText('Booked the room')).toBeVisible();
  await expect(comments.getByText('Ada Lovelace')).toBeVisible();

  // Checklist: two items, one ticked.
  await dialog.getByRole('button', { name: 'Checklist', exact: true }).click();
  const item = dialog.getByRole('textbox', { name: 'New checklist item' });
  await item.fill('Outline');
  await item.press('Enter');
  await expect(item).toHaveValue('');
  await item.fill('Rehearse');
  await item.press('Enter');
  const checklist = dialog.getByRole('region', { name: 'Checklist', exact: true });
  await expect(checklist.getByText('0/2')).toBeVisible();
  await checklist.getByRole('checkbox', { name: 'Outline' }).check();
  await expect(checklist.getByText('1/2')).toBeVisible();
  await expect(checklist.getByText('50%')).toBeVisible();
  await expect(checklist.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');

  // Labels: opening Labels closes the checklist panel.
  await dialog.getByRole('button', { name: 'Labels', exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'New checklist item' })).toHaveCount(0);
  const label = dialog.getByRole('textbox', { name: 'New label' });
  await label.fill('urgent');
  await label.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Remove label urgent' })).toBeVisible();

  // Deadline.
  await dialog.getByRole('button', { name: 'Dates', exact: true }).click();
  await dialog.getByLabel('Due date').fill('2030-05-01');
  await expect(dialog.getByRole('button', { name: 'Remove due date' })).toBeVisible();
  await expect(dialog.getByText(/Due .*2030/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Dates', exact: true }).click();
  await expect(dialog.getByLabel('Due date')).toHaveCount(0);

  // The card shows it all, collapsed, in the board behind the dialog.
  await expect(card).toContainText('urgent');
  await expect(card).toContainText('1/2');
  await page.screenshot({ path: test.info().outputPath('taskboard-card-open.png') });

  // Share and copy.
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText('Task link copied to clipboard!')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(new RegExp(`^${baseURL}/tasks/[^/]+$`));
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByText('Task copied to clipboard!')).toBeVisible();
  const summary = await page.evaluate(() => navigator.clipboard.readText());
  expect(summary).toContain('Prepare the launch');
  expect(summary).toContain('Priority: High');
  expect(summary).toContain('Checklist: 1/2');

  // Toasts sit bottom right and pause while hovered: let them go before clicking what they may cover.
  await expect(page.getByText('Task copied to clipboard!')).toBeHidden({ timeout: 20_000 });
  // Move: only the other list is offered; the card closes and the board refreshes.
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  const movePanel = dialog.getByRole('region', { name: 'Move panel' });
  await expect(movePanel.getByRole('button', { name: 'Backlog' })).toHaveCount(0);
  await movePanel.getByRole('button', { name: 'Doing' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(doing.getByRole('button', { name: 'Prepare the launch', exact: true })).toBeVisible();
  await expect(backlog.getByText('No tasks available')).toBeVisible();

  // The second tab sees the move without a reload.
  await expect(
    list(other, 'Doing').getByRole('button', { name: 'Prepare the launch', exact: true }),
  ).toBeVisible();
  await expect(list(other, 'Backlog').getByText('No tasks available')).toBeVisible();

  // The shared link opens the card.
  await other.goto(link);
  await expect(other.getByRole('dialog', { name: 'Prepare the launch', exact: true })).toBeVisible();
  await other.close();

  // Archive closes the card and takes the task off the board; Restore brings it back.
  await doing.getByRole('button', { name: 'Prepare the launch', exact: true }).click();
  await dialog.getByRole('button', { name: 'Archive' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(doing.getByText('No tasks available')).toBeVisible();
  await sections(page).getByRole('button', { name: 'Archived' }).click();
  await page.getByRole('button', { name: 'Restore Prepare the launch' }).click();
  await expect(page.getByText('No archived tasks')).toBeVisible();
  await sections(page).getByRole('button', { name: 'Boards' }).click();
  await expect(
    list(page, 'Doing').getByRole('button', { name: 'Prepare the launch', exact: true }),
  ).toBeVisible();

  // The Table lists it under its list's name.
  await sections(page).getByRole('button', { name: 'Table' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Prepare the launch' });
  await expect(row).toContainText('Doing');
  await expect(row).toContainText('High');
});

test('a task the user cannot see is a 404 page', async ({ page, request }) => {
  const email = uniqueEmail();
  await createAccount(request, email);
  await logIn(page, email);
  await page.goto('/tasks/00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
