import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { io } from 'socket.io-client';
import { acceptInvitationsAs, createAccount, PASSWORD, uniqueEmail } from './fixtures.ts';

/**
 * XSS corpus: hostile text put through every text a user can set (names, workspace and channel
 * names and descriptions, channel messages, DMs, task fields, profile fields, PR titles from GitHub,
 * the summary built from messages), then every page that renders it is opened. The page runs with
 * its CSP bypassed, so what is checked is the rendering itself (React escaping, link sanitising),
 * not only the policy: nothing may execute, open a dialog or leave an event-handler attribute or a
 * javascript: link in the DOM. The CSP header is checked separately.
 */

const corpus = (tag: string) => [
  `<img src=x onerror="window.__xss='${tag}-img'">`,
  `<script>window.__xss='${tag}-script'</script>`,
  `"><svg onload="window.__xss='${tag}-svg'">`,
  `[click](javascript:window.__xss='${tag}-md')`,
  `<a href="javascript:window.__xss='${tag}-a'">x</a>`,
  `![i](x" onerror="window.__xss='${tag}-mdimg')`,
  `<details open ontoggle="window.__xss='${tag}-details'">`,
  `<iframe srcdoc="<script>parent.__xss='${tag}-iframe'</script>">`,
  `javascript:window.__xss='${tag}-bare'`,
  `{{constructor.constructor('window.__xss="${tag}-tpl"')()}}`,
];

test.use({ bypassCSP: true });

/** Posts and keeps what the API accepted (some payloads break a field's rules; that is fine). */
async function accepted(payloads: string[], send: (p: string) => Promise<number>) {
  const kept: string[] = [];
  for (const p of payloads) if ((await send(p)) < 300) kept.push(p);
  return kept;
}

async function expectInert(page: Page, where: string) {
  // Give handlers (onerror of a broken image, ontoggle) a chance to fire.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss), where).toBeUndefined();
  const injected = await page.evaluate(() => {
    const handlers = Array.from(document.querySelectorAll('*')).filter((el) =>
      Array.from(el.attributes).some((a) => /^on/i.test(a.name)),
    );
    const links = Array.from(document.querySelectorAll('a[href], iframe[src], form[action]')).filter((el) =>
      /^\s*javascript:/i.test(
        el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? '',
      ),
    );
    const frames = document.querySelectorAll('iframe[srcdoc]').length;
    return { handlers: handlers.map((el) => el.outerHTML.slice(0, 120)), links: links.length, frames };
  });
  expect(injected, where).toEqual({ handlers: [], links: 0, frames: 0 });
}

test('hostile text anywhere a user can set it renders as text, never as code', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail();
  const peerEmail = uniqueEmail();
  const context = await browser.newContext({ bypassCSP: true });
  const request = context.request;
  const dialogs: string[] = [];
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });

  // People: hostile first and last names (within the 80-character rule).
  await createAccount(request, email, PASSWORD, {
    firstName: '<img src=x onerror="window.__xss=1">',
    lastName: '"><svg onload=window.__xss=2>',
  });
  await createAccount(request, peerEmail, PASSWORD, {
    firstName: '<script>window.__xss=3</script>',
    lastName: 'Peer',
  });
  const login = await request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const token = ((await login.json()) as { token: string }).token;
  await request.patch('/api/profile', {
    data: { role: '<img src=x onerror="window.__xss=4">', phone: '"><svg onload=window.__xss=5>' },
  });

  // A workspace with a hostile description (its name must be usable in a URL), and channels named
  // and described with the corpus.
  const wsName = `Xss ${randomUUID().slice(0, 6)}`;
  const ws = await request.post('/api/workspaces', {
    data: { name: wsName, description: corpus('wsdesc')[0], members: [{ email: peerEmail, role: 'editor' }] },
  });
  expect(ws.status()).toBe(201);
  const workspaceId = ((await ws.json()) as { _id: string })._id;
  // The peer joins (accepts the invitation): direct messages need a shared workspace.
  await acceptInvitationsAs(peerEmail, { workspace: workspaceId });
  const wsPath = `/api/workspaces/${encodeURIComponent(wsName)}`;
  const channel = await request.post(`${wsPath}/channels`, {
    data: { name: 'general', description: corpus('chdesc')[2], members: [] },
  });
  expect(channel.status()).toBe(201);
  const channelId = ((await channel.json()) as { _id: string })._id;
  const channelNames = await accepted(corpus('chname').slice(0, 3), async (p) =>
    (
      await request.post(`${wsPath}/channels`, {
        data: { name: p.slice(0, 80), description: p, members: [] },
      })
    ).status(),
  );

  // Channel messages (these also feed the summary) and DMs.
  const messages = await accepted(corpus('msg'), async (p) =>
    (
      await request.post(`${wsPath}/channels/${channelId}/messages`, {
        data: { content: p, clientId: randomUUID() },
      })
    ).status(),
  );
  expect(messages.length).toBeGreaterThanOrEqual(8);
  const dm = io(`${baseURL}/dm`, { transports: ['websocket'], auth: { token }, reconnection: false });
  for (const p of corpus('dm')) {
    const ack = await dm
      .timeout(5000)
      .emitWithAck('sendMessage', { receiverEmail: peerEmail, content: p, clientId: randomUUID() });
    expect(ack.ok).toBe(true);
  }
  dm.close();

  // Tasks: list names, titles, descriptions, comments, checklist items, labels.
  const list = await request.post('/api/tasklists', { data: { name: corpus('list')[0] } });
  expect(list.status()).toBe(201);
  const listId = ((await list.json()) as { _id: string })._id;
  const task = await request.post('/api/tasks', {
    data: { title: corpus('title')[2], description: corpus('desc').join('\n'), taskListId: listId },
  });
  expect(task.status()).toBe(201);
  const taskId = ((await task.json()) as { _id: string })._id;
  for (const p of corpus('comment'))
    await request.post(`/api/tasks/${taskId}/comments`, { data: { text: p } });
  for (const p of corpus('check').slice(0, 4))
    await request.post(`/api/tasks/${taskId}/checklist`, { data: { title: p } });
  await accepted(corpus('label').slice(0, 3), async (p) =>
    (await request.post(`/api/tasks/${taskId}/labels`, { data: { label: p.slice(0, 50) } })).status(),
  );

  // A repository whose pull requests and issues have hostile titles (the fake GitHub serves it).
  const project = await request.post('/api/projects', {
    data: { repositoryUrl: 'https://github.com/cohort-e2e/xss', workspaceId },
  });
  expect(project.status()).toBe(201);

  const visit = async (path: string, ready: () => Promise<void>) => {
    await page.goto(path);
    await ready();
    await expectInert(page, path);
  };
  await visit('/dashboard', () => expect(page.getByText(wsName).first()).toBeVisible());
  await visit(`/workspace/${encodeURIComponent(wsName)}`, () =>
    expect(page.getByText(corpus('chdesc')[2] as string).first()).toBeVisible(),
  );
  await visit(`/workspace/${encodeURIComponent(wsName)}/settings`, () =>
    expect(page.getByText(peerEmail).first()).toBeVisible(),
  );
  await visit(`/workspace/${encodeURIComponent(wsName)}/channel/${channelId}`, () =>
    expect(page.getByText(messages[0] as string).first()).toBeVisible(),
  );
  // The summary panel renders what the summarizer made of those messages.
  await page.getByRole('button', { name: 'Show Summary' }).click();
  await expect(page.getByRole('region', { name: 'Channel Conversation Summary' })).toBeVisible();
  await expectInert(page, 'summary panel');
  if (channelNames.length > 0) await expectInert(page, 'channel names in the sidebar');

  await page.evaluate(
    ([me, peer]) => localStorage.setItem('chatState', JSON.stringify({ myEmail: me, recipientEmail: peer })),
    [email, peerEmail],
  );
  await visit('/chat', () => expect(page.getByText(corpus('dm')[0] as string).first()).toBeVisible());
  await visit(`/tasks/${taskId}`, () =>
    expect(page.getByText(corpus('comment')[0] as string).first()).toBeVisible(),
  );
  await page.goto('/task');
  await page
    .getByRole('navigation', { name: 'Taskboard sections' })
    .getByRole('button', { name: 'Boards' })
    .click();
  await expect(page.getByText(corpus('title')[2] as string).first()).toBeVisible();
  await expectInert(page, 'task board');
  await visit('/profile', () => expect(page.getByRole('textbox').first()).toBeVisible());
  await visit(`/workspace/${workspaceId}/projects`, async () => {
    await page.getByRole('navigation', { name: 'Projects' }).getByRole('button', { name: /xss/ }).click();
    await expect(page.getByRole('link', { name: '<img src=x onerror="window.__xss=\'pr\'">' })).toBeVisible();
  });
  await page.getByRole('tab', { name: /Issues/ }).click();
  await expect(page.getByRole('link', { name: '<script>window.__xss="issue"</script>' })).toBeVisible();
  await expectInert(page, 'project issues');

  expect(dialogs).toEqual([]);
  await context.close();
});

test('the SPA is served with a CSP without inline scripts and with frame-ancestors', async ({ request }) => {
  for (const path of ['/', '/login', '/workspace/x/channel/y']) {
    const res = await request.get(path);
    const csp = res.headers()['content-security-policy'] ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc, path).toContain("'self'");
    expect(scriptSrc, path).not.toContain("'unsafe-inline'");
    expect(scriptSrc, path).not.toContain("'unsafe-eval'");
    expect(csp, path).toMatch(/frame-ancestors 'self'|frame-ancestors 'none'/);
    expect(csp, path).toMatch(/object-src 'none'/);
    expect(res.headers()['x-content-type-options'], path).toBe('nosniff');
  }
});
