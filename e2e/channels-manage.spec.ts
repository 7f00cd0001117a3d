import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { acceptInvitations, type Person, person } from './fixtures.ts';

/**
 * Managing channels (issue 22) between two real users in two browsers: Bob browses the workspace's
 * open channels and joins one, Ada renames it, Bob sets its topic, Ada archives it — each change seen
 * live by the other, and announced in the channel.
 */

let ada: Person;
let bob: Person;

test.beforeEach(async ({ browser }) => {
  ada = await person(browser, 'Ada');
  bob = await person(browser, 'Bob');
});
test.afterEach(async () => {
  await ada.context.close();
  await bob.context.close();
});

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Channels' });
const log = (page: Page, channel: string) => page.getByRole('log', { name: `Messages in ${channel}` });

test('browse → join → rename → topic → archive, seen live by the other member', async () => {
  test.setTimeout(180_000);
  const name = `Manage ${Math.random().toString(36).slice(2, 8)}`;
  const created = await ada.context.request.post('/api/workspaces', {
    data: { name, description: 'Channel management', members: [{ email: bob.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace: name });
  // Created after Bob joined the workspace: Bob is not in it until he joins.
  const res = await ada.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'launch', description: 'Launch planning', members: [] },
  });
  expect(res.status()).toBe(201);
  const { _id: channelId } = (await res.json()) as { _id: string };
  const channelUrl = `/workspace/${encodeURIComponent(name)}/channel/${channelId}`;

  // Ada reads the channel.
  await ada.page.goto(channelUrl);
  await expect(ada.page.getByRole('heading', { name: 'launch Chat' })).toBeVisible({ timeout: 20_000 });
  await expect(log(ada.page, 'launch')).toHaveAttribute('aria-busy', 'false');

  // Bob's sidebar does not list it; the browse view does, with one member, not joined.
  await bob.page.goto(`/workspace/${encodeURIComponent(name)}`);
  await expect(bob.page.getByRole('navigation', { name: 'Workspaces' })).toBeVisible({ timeout: 20_000 });
  await expect(sidebar(bob.page).getByRole('link', { name: /launch/ })).toHaveCount(0);
  await sidebar(bob.page).getByRole('link', { name: 'Browse channels' }).click();
  const row = bob.page.getByRole('listitem', { name: 'launch' });
  await expect(row).toContainText('1 member');
  await expect(row).not.toContainText('Joined');
  await row.getByRole('button', { name: 'Join launch' }).click();
  await expect(row).toContainText('Joined');
  await expect(row).toContainText('2 members');
  await expect(sidebar(bob.page).getByRole('link', { name: /launch/ })).toBeVisible();
  // Ada sees him join, live.
  await expect(log(ada.page, 'launch').getByText('Bob Tester joined the channel')).toBeVisible();

  // Bob opens it; Ada renames it from the channel's details.
  await sidebar(bob.page)
    .getByRole('link', { name: /launch/ })
    .click();
  await expect(bob.page.getByRole('heading', { name: 'launch Chat' })).toBeVisible();
  await expect(log(bob.page, 'launch')).toHaveAttribute('aria-busy', 'false');
  await ada.page.getByRole('button', { name: 'Details' }).click();
  const details = ada.page.getByRole('dialog', { name: '#launch' });
  await details.getByRole('textbox', { name: 'Name' }).fill('launch-week');
  await details.getByRole('button', { name: 'Save' }).click();
  await expect(ada.page.getByRole('heading', { name: 'launch-week Chat' })).toBeVisible();
  await ada.page.getByRole('dialog', { name: '#launch-week' }).getByRole('button', { name: 'Close' }).click();
  await expect(bob.page.getByRole('heading', { name: 'launch-week Chat' })).toBeVisible();
  await expect(
    log(bob.page, 'launch-week').getByText('Ada Tester renamed the channel to launch-week'),
  ).toBeVisible();
  await expect(sidebar(bob.page).getByRole('link', { name: /launch-week/ })).toBeVisible();

  // Bob, an editor, sets the topic; Ada sees it in her header.
  await bob.page.getByRole('button', { name: 'Details' }).click();
  const bobDetails = bob.page.getByRole('dialog', { name: '#launch-week' });
  // Not the creator nor an admin: the topic only.
  await expect(bobDetails.getByRole('textbox', { name: 'Name' })).toHaveCount(0);
  await bobDetails.getByRole('textbox', { name: 'Topic' }).fill('Ship on Friday');
  await bobDetails.getByRole('button', { name: 'Save' }).click();
  await expect(bobDetails.getByRole('listitem').filter({ hasText: 'Ada Tester' })).toContainText('Admin');
  await bobDetails.getByRole('button', { name: 'Close' }).click();
  await expect(ada.page.getByTestId('channel-topic')).toHaveText('Topic: Ship on Friday');
  await expect(
    log(ada.page, 'launch-week').getByText('Bob Tester set the topic: Ship on Friday'),
  ).toBeVisible();

  // Ada archives it: Bob's view turns read-only at once and the sidebar lets it go.
  await ada.page.getByRole('button', { name: 'Details' }).click();
  await ada.page
    .getByRole('dialog', { name: '#launch-week' })
    .getByRole('button', { name: 'Archive channel' })
    .click();
  await expect(bob.page.getByRole('status').filter({ hasText: 'This channel is archived' })).toBeVisible();
  await expect(log(bob.page, 'launch-week').getByText('Ada Tester archived the channel')).toBeVisible();
  await expect(bob.page.getByRole('textbox', { name: 'Message launch-week' })).toBeDisabled();
  await expect(sidebar(bob.page).getByRole('link', { name: /launch-week/ })).toHaveCount(0);
  // The server refuses a send anyway, with a clear reason.
  const refused = await bob.context.request.post(
    `/api/workspaces/${encodeURIComponent(name)}/channels/${channelId}/messages`,
    { data: { clientId: crypto.randomUUID(), content: 'sneaky' } },
  );
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({ message: 'This channel is archived: it is read-only' });

  // Still reachable from the browse view, marked Archived, and not joinable.
  await sidebar(bob.page).getByRole('link', { name: 'Browse channels' }).click();
  const archivedRow = bob.page.getByRole('listitem', { name: 'launch-week' });
  await expect(archivedRow).toContainText('Archived');
  await expect(archivedRow.getByRole('button', { name: /Join/ })).toHaveCount(0);

  // The browse view and the details dialog pass axe (serious and critical).
  expect(await axeViolations(bob.page)).toEqual([]);
  await ada.page.getByRole('button', { name: 'Details' }).click();
  await expect(ada.page.getByRole('dialog', { name: '#launch-week' })).toBeVisible();
  expect(await axeViolations(ada.page)).toEqual([]);
});
