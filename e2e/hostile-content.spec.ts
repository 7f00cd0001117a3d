import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createAccount, PASSWORD, uniqueEmail } from './fixtures.ts';

/**
 * Issue 17: a short message of nested `>` quotes sent the Markdown parser into an endless loop, so
 * the tab of everyone who opened the channel or a search hit for it froze. Here a user posts that
 * message and other adversarial ones in a channel of their own, opens the channel and a search hit:
 * the messages show, and the page still takes and shows a new message.
 */

const word = () => `zebu${Math.random().toString(36).slice(2, 8)}`;

/** Posts over the API; a flood guard may ask to wait (429), which is waited out. */
async function post(request: APIRequestContext, url: string, content: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const res = await request.post(url, { data: { clientId: crypto.randomUUID(), content } });
    if (res.status() === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers()['retry-after'] ?? 1)));
      continue;
    }
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { _id: string })._id;
  }
  throw new Error('still rate limited');
}

async function sendAndSee(page: Page, text: string) {
  const composer = page.getByRole('textbox', { name: 'Message general' });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
  await expect(page.getByRole('log', { name: 'Messages in general' }).getByText(text)).toBeVisible();
}

test('hostile Markdown neither freezes the channel nor a search hit for it', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail();
  const context = await browser.newContext();
  const { request } = context;
  await createAccount(request, email, PASSWORD, { firstName: 'Hedy', lastName: 'Lamarr' });
  expect((await request.post('/api/login', { data: { email, password: PASSWORD } })).status()).toBe(200);

  // A workspace and channel of this user alone.
  const name = `Hostile ${Math.random().toString(36).slice(2, 8)}`;
  const ws = await request.post('/api/workspaces', {
    data: { name, description: 'Hostile content', members: [] },
  });
  expect(ws.status(), await ws.text()).toBe(201);
  const channel = await request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Anything goes', members: [] },
  });
  expect(channel.status(), await channel.text()).toBe(201);
  const channelId = ((await channel.json()) as { _id: string })._id;
  const messagesUrl = `/api/workspaces/${encodeURIComponent(name)}/channels/${channelId}/messages`;

  const key = word();
  const hostileId = await post(request, messagesUrl, `>>>>>>>> ${key}`);
  const others = [
    '> > > > > > > >',
    '>>>>>>\n>>>>>>>\n>',
    '>>>>>> - a\n>>>>>> 1. b\n>>>>>> ```\n>>>>>> code',
    '*a **b _c __d ~~e '.repeat(200),
    '[['.repeat(1900),
    `${'@['.repeat(900)}](a@b`,
    '(http://('.repeat(400),
  ];
  for (const content of others) await post(request, messagesUrl, content);

  const page = await context.newPage();
  await page.goto(`/workspace/${encodeURIComponent(name)}/channel/${channelId}`);
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
  const log = page.getByRole('log', { name: 'Messages in general' });
  await expect(log).toHaveAttribute('aria-busy', 'false');
  // Quotes nest five deep; the deeper markers are shown as the text they are.
  const hostile = page.locator(`[id="message-${hostileId}"]`);
  await expect(hostile).toContainText(`>>> ${key}`);
  await expect(hostile.locator('blockquote blockquote blockquote blockquote blockquote')).toHaveCount(1);
  await expect(log.getByText('> > >', { exact: true })).toBeVisible();
  await sendAndSee(page, `still responsive ${word()}`);

  // The search hit for the hostile message: snippet shown, and it opens the channel at the message.
  const box = page.getByRole('navigation', { name: 'Main' }).getByRole('combobox', { name: 'Search' });
  await box.fill(key);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=/);
  const hit = page.getByRole('region', { name: 'Messages' }).getByRole('link').first();
  await expect(hit.locator('mark')).toHaveText(key);
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/channel/${channelId}\\?message=${hostileId}`));
  await expect(hostile).toContainText(`>>> ${key}`);
  await sendAndSee(page, `still responsive after search ${word()}`);

  await context.close();
});
