import { expect, type Page, test } from '@playwright/test';
import { acceptInvitations, messageAction, navbar, type Person, person } from './fixtures.ts';

/**
 * Pins and saved messages (issue 22). Ada pins a message; Bob sees the marker, the announcement and
 * the header's Pins count live, and opens the pin at the message; a viewer is offered no pin (and the
 * API refuses). Ada saves a channel message and a direct message, finds both on /saved with their
 * conversations' names, opens one at the message and removes the other.
 */

const log = (page: Page, name = 'Messages in general') => page.getByRole('log', { name });
const pinsButton = (page: Page) => page.getByRole('button', { name: /^Pins/ });

async function openChannel(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
  await expect(log(page)).toHaveAttribute('aria-busy', 'false');
}

test('pin and save', async ({ browser }) => {
  test.setTimeout(180_000);
  const ada = await person(browser, 'Ada', 'Lovelace');
  const bob = await person(browser, 'Bob', 'Builder');
  const vera = await person(browser, 'Vera', 'Viewer');
  const people: Person[] = [ada, bob, vera];
  try {
    // A workspace of Ada's: Bob an editor, Vera a viewer; one open channel.
    const name = `Pins ${Math.random().toString(36).slice(2, 8)}`;
    const created = await ada.context.request.post('/api/workspaces', {
      data: {
        name,
        description: 'Pins and saved',
        members: [
          { email: bob.email, role: 'editor' },
          { email: vera.email, role: 'viewer' },
        ],
      },
    });
    expect(created.status()).toBe(201);
    await acceptInvitations(bob.context.request, { workspace: name });
    await acceptInvitations(vera.context.request, { workspace: name });
    const channel = await ada.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
      data: { name: 'general', description: 'Everything', members: [] },
    });
    expect(channel.status()).toBe(201);
    const { _id: channelId } = (await channel.json()) as { _id: string };
    const channelUrl = `/workspace/${encodeURIComponent(name)}/channel/${channelId}`;
    const messagesUrl = `/api/workspaces/${encodeURIComponent(name)}/channels/${channelId}/messages`;
    const post = async (who: Person, content: string) => {
      const data = { clientId: crypto.randomUUID(), content };
      let res = await who.context.request.post(messagesUrl, { data });
      // One person may send 20 messages per 5 seconds: seed like a fast typist, not a flood.
      while (res.status() === 429) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        res = await who.context.request.post(messagesUrl, { data });
      }
      expect(res.status()).toBe(201);
      return (await res.json()) as { _id: string };
    };
    const target = await post(bob, 'The launch checklist lives in the wiki');
    for (let i = 1; i <= 25; i++) await post(ada, `filler message number ${i}`);

    await openChannel(ada.page, channelUrl);
    await openChannel(bob.page, channelUrl);
    await expect(pinsButton(bob.page)).toContainText('0');

    // Ada pins Bob's message.
    const adaTarget = ada.page.locator(`[id="message-${target._id}"]`);
    await (await messageAction(adaTarget, 'Pin to channel')).click();
    await expect(adaTarget).toContainText('Pinned by Ada Lovelace');

    // Bob sees it live: the marker, the announcement and the header's count.
    const bobTarget = bob.page.locator(`[id="message-${target._id}"]`);
    await expect(bobTarget).toContainText('Pinned by Ada Lovelace');
    await expect(log(bob.page).getByText('Ada Lovelace pinned a message')).toBeVisible();
    await expect(pinsButton(bob.page)).toContainText('1');
    await expect(bobTarget).not.toBeInViewport();

    // Bob answers (his own message is now the channel's newest), then the Pins panel lists the pin;
    // opening it scrolls the channel to the message, and the newer history loaded after it, ending
    // with Bob's own message, does not carry him back to the bottom.
    await post(bob, 'Thanks for pinning it');
    await expect(log(bob.page).getByText('Thanks for pinning it')).toBeVisible();
    await pinsButton(bob.page).click();
    const panel = bob.page.getByRole('dialog', { name: 'Pinned in general' });
    const pinned = panel.getByRole('listitem').filter({ hasText: 'The launch checklist lives in the wiki' });
    await expect(pinned).toContainText('Bob Builder');
    await expect(pinned).toContainText('Pinned by Ada Lovelace');
    await pinned.getByRole('link').click();
    await expect(panel).toHaveCount(0);
    await expect(bobTarget).toBeInViewport();
    await expect(bobTarget).toHaveAttribute('aria-current', 'true');

    // A viewer: no pin action (the message menu is there: "Save for later"), and the API says 403.
    await openChannel(vera.page, channelUrl);
    const veraTarget = vera.page.locator(`[id="message-${target._id}"]`);
    await expect(veraTarget).toContainText('Pinned by Ada Lovelace');
    await messageAction(veraTarget, 'Save for later');
    await expect(veraTarget.getByRole('button', { name: 'Pin to channel' })).toHaveCount(0);
    await expect(veraTarget.getByRole('button', { name: 'Unpin from channel' })).toHaveCount(0);
    const refused = await vera.context.request.put(`${messagesUrl}/${target._id}/pin`);
    expect(refused.status()).toBe(403);
    await pinsButton(vera.page).click();
    const veraPanel = vera.page.getByRole('dialog', { name: 'Pinned in general' });
    await expect(veraPanel.getByRole('listitem')).toHaveCount(1);
    await expect(veraPanel.getByRole('button', { name: /^Unpin/ })).toHaveCount(0);
    await vera.page.keyboard.press('Escape');

    // Ada saves the pinned channel message…
    await (await messageAction(adaTarget, 'Save for later')).click();
    await expect(ada.page.getByText('Saved for later')).toBeVisible();
    await expect(await messageAction(adaTarget, 'Remove from saved')).toHaveAttribute('aria-pressed', 'true');

    // …and a direct message with Bob.
    await ada.page.goto(`/chat?with=${encodeURIComponent(bob.email)}`);
    const dmComposer = ada.page.getByRole('textbox', { name: 'Message Bob Builder' });
    await dmComposer.fill('Remember the cables for Friday');
    await dmComposer.press('Enter');
    const dmLog = log(ada.page, 'Messages with Bob Builder');
    const dm = dmLog.getByRole('listitem').filter({ hasText: 'Remember the cables for Friday' });
    await expect(dm).not.toContainText('Sending…');
    await (await messageAction(dm, 'Save for later')).click();
    await expect(await messageAction(dm, 'Remove from saved')).toBeVisible();

    // The Saved view, from the user menu: both, newest saved first, with their conversations.
    await navbar(ada.page)
      .getByRole('button', { name: `${ada.email.slice(0, 15)}…`, exact: true })
      .click();
    await ada.page.getByRole('menuitem', { name: 'Saved' }).click();
    await expect(ada.page).toHaveURL(/\/saved$/);
    await expect(ada.page.getByRole('heading', { name: 'Saved', level: 1 })).toBeVisible();
    const saved = ada.page.getByRole('list', { name: 'Saved messages' }).getByRole('listitem');
    await expect(saved).toHaveCount(2);
    await expect(saved.nth(0)).toContainText('Remember the cables for Friday');
    await expect(saved.nth(0)).toContainText('Direct message with Bob Builder');
    await expect(saved.nth(1)).toContainText('The launch checklist lives in the wiki');
    await expect(saved.nth(1)).toContainText(`${name} /`);
    await expect(saved.nth(1)).toContainText('general');
    await expect(saved.nth(1)).toContainText('Bob Builder');

    // Removing one: it leaves the list.
    await saved
      .nth(0)
      .getByRole('button', { name: /^Remove from saved/ })
      .click();
    await expect(saved).toHaveCount(1);
    await expect(ada.page.getByText('Remember the cables for Friday')).toHaveCount(0);

    // Opening the other: the channel at the message.
    await saved.nth(0).getByRole('link').click();
    await expect(ada.page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
    await expect(adaTarget).toBeInViewport();
    await expect(adaTarget).toHaveAttribute('aria-current', 'true');

    // The removal holds on the server too.
    const list = (await (await ada.context.request.get('/api/saved')).json()) as { messageId: string }[];
    expect(list.map((i) => i.messageId)).toEqual([target._id]);
  } finally {
    for (const p of people) await p.context.close();
  }
});
