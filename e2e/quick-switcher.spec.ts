import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { acceptInvitations, navbar, type Person, person } from './fixtures.ts';

/**
 * The quick switcher (Ctrl/Cmd+K) and the search box's suggestions (issue 22): a member of two
 * workspaces jumps to a channel of the other workspace and to a direct conversation with the keyboard
 * only; private channels she is not in, and other people's workspaces, are never offered.
 */

let ada: Person;
let bob: Person;
let carl: Person;

test.beforeEach(async ({ browser }) => {
  ada = await person(browser, 'Ada', 'Switcher');
  bob = await person(browser, 'Bob', 'Builder');
  carl = await person(browser, 'Carl', 'Outsider');
});
test.afterEach(async () => {
  for (const p of [ada, bob, carl]) await p.context.close();
});

const suffix = () => Math.random().toString(36).slice(2, 8);

async function channel(who: Person, workspace: string, name: string, isPrivate = false) {
  const res = await who.context.request.post(`/api/workspaces/${encodeURIComponent(workspace)}/channels`, {
    data: { name, description: `About ${name}`, private: isPrivate, members: [] },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function workspace(owner: Person, name: string, members: Person[]) {
  const res = await owner.context.request.post('/api/workspaces', {
    data: {
      name,
      description: 'Quick switcher journeys',
      members: members.map((m) => ({ email: m.email, role: 'editor' })),
    },
  });
  expect(res.status()).toBe(201);
  for (const m of members) await acceptInvitations(m.context.request, { workspace: name });
}

const switcher = (page: Page) => page.getByRole('dialog', { name: 'Quick switcher' });

test('Ctrl+K to a channel with the keyboard only (and an axe check of the switcher)', async () => {
  test.setTimeout(120_000);
  const home = `QS Home ${suffix()}`;
  const other = `QS Other ${suffix()}`;
  const outside = `QS Outside ${suffix()}`;
  await workspace(ada, home, []);
  await workspace(bob, other, [ada]);
  await workspace(carl, outside, []);
  const lobby = await channel(ada, home, 'lobby');
  const roadmap = await channel(bob, other, 'quarterly-roadmap');
  await channel(bob, other, 'bobs-hidden-plans', true);
  await channel(carl, outside, 'carls-hidden-plans', true);
  await channel(carl, outside, 'carls-open-plans');

  const page = ada.page;
  await page.goto(`/workspace/${encodeURIComponent(home)}/channel/${lobby}`);
  await expect(page.getByRole('heading', { name: 'lobby Chat' })).toBeVisible({ timeout: 20_000 });
  const composer = page.getByRole('textbox', { name: 'Message lobby' });
  await composer.click();

  // From the composer: the switcher opens over the page, its combobox focused.
  await page.keyboard.press('Control+K');
  const dialog = switcher(page);
  await expect(dialog).toBeVisible();
  const box = dialog.getByRole('combobox', { name: 'Go to' });
  await expect(box).toBeFocused();
  await expect(composer).toHaveValue('');
  const options = dialog.getByRole('listbox').getByRole('option');
  // Recent first: the channel just visited.
  await expect(options.first()).toContainText('lobby');

  // Nobody's private channel she is not in, nothing of a workspace she is not in.
  await box.fill('plans');
  await expect(dialog.getByRole('status')).toHaveText('No matches');
  await box.fill('');

  // Axe over the open switcher (with its listbox of options).
  await expect(options.nth(2)).toBeVisible();
  expect(await axeViolations(page, { include: '[role="dialog"]', everyImpact: true })).toEqual([]);

  // Escape closes it and gives the focus back to the composer.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(composer).toBeFocused();

  // Fuzzy: scattered letters of the other workspace's channel.
  await page.keyboard.press('Control+K');
  await expect(box).toBeFocused();
  await page.keyboard.type('qtrrdmp');
  await expect(options.first()).toContainText('quarterly-roadmap');
  await expect(options.first()).toContainText(other);
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(options.first().locator('mark').first()).toBeVisible();
  // Down then Up wraps back to the first.
  const count = await options.count();
  await page.keyboard.press('ArrowDown');
  if (count > 1) await expect(options.first()).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowUp');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(
    new RegExp(`/workspace/${encodeURIComponent(other).replace(/%20/g, '(%20|\\+)')}/channel/${roadmap}$`),
  );
  await expect(page.getByRole('heading', { name: 'quarterly-roadmap Chat' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Ctrl+K again toggles it closed.
  await page.keyboard.press('Control+K');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Control+K');
  await expect(dialog).toBeHidden();

  // A person: their direct conversation opens.
  await page.keyboard.press('Control+K');
  await expect(box).toBeFocused();
  await page.keyboard.type('bob bui');
  await expect(options.first()).toContainText('Bob Builder');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/chat\?with=/);
  await expect(
    page.getByRole('region', { name: 'Bob Builder' }).getByRole('heading', { name: 'Bob Builder' }),
  ).toBeVisible();

  // The empty switcher now starts with what was opened last.
  await page.keyboard.press('Control+K');
  await expect(options.first()).toContainText('Bob Builder');
  await expect(options.nth(1)).toContainText('quarterly-roadmap');
  await page.keyboard.press('Escape');
});

test('the search box suggests channels and recent searches; Enter without a pick runs the full search', async () => {
  test.setTimeout(120_000);
  const home = `QS Search ${suffix()}`;
  await workspace(ada, home, [bob]);
  const roadmap = await channel(ada, home, 'roadmap-review');
  await channel(bob, home, 'roadmap-secret', true);

  const page = ada.page;
  await page.goto('/dashboard');
  const box = navbar(page).getByRole('combobox', { name: 'Search' });
  // A full search, as before: it becomes a recent search.
  await box.fill('roadmap launch');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=roadmap\+launch/);
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();

  await box.fill('');
  await box.pressSequentially('roadm');
  const list = navbar(page).getByRole('listbox', { name: 'Suggestions' });
  await expect(list.getByRole('option', { name: /roadmap-review/ })).toBeVisible();
  await expect(list.getByRole('option', { name: /Recent search roadmap launch/ })).toBeVisible();
  await expect(list).not.toContainText('roadmap-secret');
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  expect(await axeViolations(page, { include: '[role="search"]', everyImpact: true })).toEqual([]);

  // Escape closes the list and keeps the text; Enter without a pick runs the full search.
  await box.press('Escape');
  await expect(list).toBeHidden();
  await expect(box).toHaveValue('roadm');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=roadm$/);
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();

  // Arrow keys pick a channel and Enter opens it.
  await box.fill('');
  await box.pressSequentially('rdmprev');
  await expect(list.getByRole('option').first()).toContainText('roadmap-review');
  await box.press('ArrowDown');
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/channel/${roadmap}$`));
  await expect(page.getByRole('heading', { name: 'roadmap-review Chat' })).toBeVisible();
});
