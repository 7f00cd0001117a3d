import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { io } from 'socket.io-client';
import { acceptInvitations, person } from './fixtures.ts';

/**
 * Search from the navbar: a highlighted hit opens its channel at the message, even one buried under
 * 60+ newer messages (history is loaded around it); someone not listed in the private channel finds
 * nothing.
 */

async function search(page: Page, words: string) {
  await page.goto('/');
  const box = page.getByRole('navigation', { name: 'Main' }).getByRole('combobox', { name: 'Search' });
  await box.fill(words);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=/);
}

test('search finds a buried private message, opens it in context, and hides it from others', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const ada = await person(browser, 'Ada', 'Searcher');
  const bob = await person(browser, 'Bob', 'Searcher');
  const name = `Search ${Math.random().toString(36).slice(2, 8)}`;
  const ws = await ada.context.request.post('/api/workspaces', {
    data: { name, description: 'Search journeys', members: [{ email: bob.email, role: 'editor' }] },
  });
  expect(ws.status()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace: name });
  const channelRes = await ada.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'launch', description: 'Launch plans', private: true, members: [] },
  });
  expect(channelRes.status()).toBe(201);
  const channelId = ((await channelRes.json()) as { _id: string })._id;
  const messagesUrl = `/api/workspaces/${encodeURIComponent(name)}/channels/${channelId}/messages`;
  const word = `quokka${Math.random().toString(36).slice(2, 8)}`;
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
  const target = await post(`The secret launch word is ${word}, keep it quiet`);
  for (let i = 1; i <= 65; i++) await post(`filler message number ${i}`);

  await search(ada.page, word);
  const messages = ada.page.getByRole('region', { name: 'Messages' });
  const hit = messages.getByRole('link').first();
  await expect(hit.locator('mark')).toHaveText(word);
  await hit.click();

  await expect(ada.page).toHaveURL(new RegExp(`/channel/${channelId}\\?message=${target._id}`));
  const bubble = ada.page.locator(`[id="message-${target._id}"]`);
  await expect(bubble).toBeInViewport();
  await expect(bubble).toHaveAttribute('aria-current', 'true');
  await expect(bubble).toContainText(word);
  // The newest messages arrive too (the history after the target is backfilled).
  await expect(ada.page.getByText('filler message number 65')).toBeAttached();
  // The highlight is brief.
  await expect(bubble).not.toHaveAttribute('aria-current', 'true', { timeout: 10_000 });

  await search(bob.page, word);
  await expect(bob.page.getByText('No results')).toBeVisible();
  await expect(bob.page.getByRole('region', { name: 'Messages' })).toHaveCount(0);

  await ada.context.close();
  await bob.context.close();
});

test('a direct message hit opens the conversation at that message, under 60 newer ones', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const ada = await person(browser, 'Ada', 'Searcher');
  const bob = await person(browser, 'Bob', 'Searcher');
  // Direct messages need a shared workspace.
  const ws = await ada.context.request.post('/api/workspaces', {
    data: {
      name: `DM search ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Direct message search',
      members: [{ email: bob.email, role: 'editor' }],
    },
  });
  expect(ws.status(), await ws.text()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace: ((await ws.json()) as { _id: string })._id });

  const word = `wombat${Math.random().toString(36).slice(2, 8)}`;
  const contents = [
    `Between us: the code word is ${word}`,
    ...Array.from({ length: 60 }, (_, i) => `dm filler ${i + 1}`),
  ];
  const cookies = await ada.context.cookies();
  let targetId = '';
  const dm = io(`${baseURL}/dm`, {
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), origin: baseURL ?? '' },
  });
  for (const content of contents) {
    const payload = { receiverEmail: bob.email, content, clientId: randomUUID() };
    let ack = await dm.timeout(5000).emitWithAck('sendMessage', payload);
    // The send budget is per person (20 per 5 s), whatever the sockets: wait as a client would.
    while (!ack.ok && ack.message === 'Slow down') {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      ack = await dm.timeout(5000).emitWithAck('sendMessage', payload);
    }
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
    if (!targetId) targetId = ack.message._id;
  }
  dm.close();

  await search(bob.page, word);
  const hit = bob.page.getByRole('region', { name: 'Messages' }).getByRole('link').first();
  await expect(hit.locator('mark')).toHaveText(word);
  await hit.click();

  await expect(bob.page).toHaveURL(new RegExp(`/chat\\?with=.*&message=${targetId}`));
  const bubble = bob.page.locator(`[id="message-${targetId}"]`);
  await expect(bubble).toBeInViewport();
  await expect(bubble).toHaveAttribute('aria-current', 'true');
  await expect(bubble).toContainText(word);
  // The newer messages are backfilled after the page around the hit.
  await expect(bob.page.getByText('dm filler 60', { exact: true })).toBeAttached();
  await expect(bubble).not.toHaveAttribute('aria-current', 'true', { timeout: 10_000 });

  await ada.context.close();
  await bob.context.close();
});
