import { expect, type Page, test } from '@playwright/test';
import { acceptInvitations, messageAction, type Person, person } from './fixtures.ts';

/**
 * The messaging tools of issue 22: Up-arrow in an empty composer edits my last message (Enter saves,
 * Escape cancels), and "Copy link to message" gives a link that opens the channel at the message for
 * a member and a not-found page for someone outside the workspace.
 */

/** A workspace of `admin` with `member` as editor, and one public channel in it. */
async function workspaceWithChannel(admin: Person, member: Person) {
  const name = `Tools ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.context.request.post('/api/workspaces', {
    data: { name, description: 'Message tools', members: [{ email: member.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(member.context.request, { workspace: name });
  const channel = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Everything', members: [] },
  });
  expect(channel.status()).toBe(201);
  const { _id } = (await channel.json()) as { _id: string };
  return {
    channelUrl: `/workspace/${encodeURIComponent(name)}/channel/${_id}`,
    messagesUrl: `/api/workspaces/${encodeURIComponent(name)}/channels/${_id}/messages`,
  };
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages in general' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message general' });
const editor = (page: Page) => page.getByRole('textbox', { name: 'Edit message' });

async function openChannel(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
  await expect(log(page)).toHaveAttribute('aria-busy', 'false');
}

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('');
  await expect(log(page).getByRole('listitem').filter({ hasText: text })).not.toContainText('Sending…');
}

test('Up-arrow in the empty composer edits my last message: Enter saves (seen live), Escape cancels', async ({
  browser,
}) => {
  const ada = await person(browser, 'Ada', 'Lovelace');
  const bob = await person(browser, 'Bob', 'Builder');
  try {
    const { channelUrl } = await workspaceWithChannel(ada, bob);
    await openChannel(ada.page, channelUrl);
    await openChannel(bob.page, channelUrl);
    await send(ada.page, 'The demo is on Friday');
    await send(ada.page, 'Bring the slides tomorow');
    await expect(log(bob.page).getByText('Bring the slides tomorow')).toBeVisible();

    // With text in the composer, Up-arrow only moves the caret.
    await composer(ada.page).fill('draft');
    await composer(ada.page).press('ArrowUp');
    await expect(editor(ada.page)).toHaveCount(0);
    await expect(composer(ada.page)).toHaveValue('draft');
    await composer(ada.page).fill('');

    // Empty: Up-arrow opens the last message in its edit field, focused, the caret at the end.
    await composer(ada.page).press('ArrowUp');
    await expect(editor(ada.page)).toBeFocused();
    await expect(editor(ada.page)).toHaveValue('Bring the slides tomorow');
    // The caret is at the end: "tomorow" loses its "ow" and gets "row".
    await ada.page.keyboard.press('Backspace');
    await ada.page.keyboard.press('Backspace');
    await ada.page.keyboard.type('row');
    await expect(editor(ada.page)).toHaveValue('Bring the slides tomorrow');
    await ada.page.keyboard.press('Enter');
    await expect(editor(ada.page)).toHaveCount(0);
    await expect(composer(ada.page)).toBeFocused();
    const bobSlides = log(bob.page).getByRole('listitem').filter({ hasText: 'Bring the slides tomorrow' });
    await expect(bobSlides).toContainText('(edited)');

    // Escape cancels another edit: nothing changes, and the focus is back in the composer.
    await composer(ada.page).press('ArrowUp');
    await expect(editor(ada.page)).toHaveValue('Bring the slides tomorrow');
    await ada.page.keyboard.type(' and the cables');
    await ada.page.keyboard.press('Escape');
    await expect(editor(ada.page)).toHaveCount(0);
    await expect(composer(ada.page)).toBeFocused();
    await expect(log(ada.page).getByText('Bring the slides tomorrow and the cables')).toHaveCount(0);
    await bob.page.waitForTimeout(500);
    await expect(log(bob.page).getByText('and the cables')).toHaveCount(0);
    await expect(
      log(bob.page).getByRole('listitem').filter({ hasText: 'The demo is on Friday' }),
    ).not.toContainText('(edited)');
  } finally {
    await ada.context.close();
    await bob.context.close();
  }
});

test('a copied message link opens the channel at the message for a member, and not-found for an outsider', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const clipboard = { permissions: ['clipboard-read', 'clipboard-write'] };
  const ada = await person(browser, 'Ada', 'Lovelace', clipboard);
  const bob = await person(browser, 'Bob', 'Builder');
  const carol = await person(browser, 'Carol', 'Outsider');
  try {
    const { channelUrl, messagesUrl } = await workspaceWithChannel(ada, bob);
    const post = async (content: string) => {
      const data = { clientId: crypto.randomUUID(), content };
      let res = await ada.context.request.post(messagesUrl, { data });
      // One person may send 20 messages per 5 seconds: seed like a fast typist, not a flood.
      while (res.status() === 429) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        res = await ada.context.request.post(messagesUrl, { data });
      }
      expect(res.status()).toBe(201);
      return (await res.json()) as { _id: string };
    };
    const target = await post('The launch checklist lives in the wiki');
    for (let i = 1; i <= 30; i++) await post(`filler message number ${i}`);

    await openChannel(ada.page, channelUrl);
    const item = ada.page.locator(`[id="message-${target._id}"]`);
    await (await messageAction(item, 'Copy link to message')).click();
    await expect(ada.page.getByText('Link copied')).toBeVisible();
    const link = await ada.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^http://[^/]+${channelUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?`));
    expect(new URL(link).searchParams.get('message')).toBe(target._id);

    // Bob, a member: the channel opens at that message, scrolled into view and highlighted.
    await bob.page.goto(link);
    const bubble = bob.page.locator(`[id="message-${target._id}"]`);
    await expect(bubble).toBeInViewport();
    await expect(bubble).toHaveAttribute('aria-current', 'true');
    await expect(bubble).toContainText('The launch checklist lives in the wiki');
    await expect(log(bob.page).getByText('filler message number 30', { exact: true })).not.toBeInViewport();

    // Carol, outside the workspace: a clear not-found, nothing of the channel.
    await carol.page.goto(link);
    await expect(carol.page.getByRole('alert')).toHaveText('Workspace not found');
    await expect(carol.page.getByText('The launch checklist lives in the wiki')).toHaveCount(0);
  } finally {
    await ada.context.close();
    await bob.context.close();
    await carol.context.close();
  }
});
