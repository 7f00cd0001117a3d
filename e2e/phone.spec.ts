import { readFileSync } from 'node:fs';
import { type Browser, expect as baseExpect, type Locator, type Page, test } from '@playwright/test';
import { acceptInvitations, navbar, type Person, person, uniqueEmail } from './fixtures.ts';

/**
 * Cohort on a 390 px phone (issue 19): the navigation and the workspace sidebar are drawers, a
 * conversation fills the screen with its composer in view (also when the keyboard takes half of it),
 * and no route scrolls sideways. Plus the desktop layout frictions: where toasts go, the dark theme.
 */

const PHONE = { width: 390, height: 844 };

/** A signed-in person on a phone (touch, 390 px) unless another viewport is given. */
const phonePerson = (browser: Browser, firstName: string, viewport = PHONE) =>
  person(browser, firstName, 'Tester', { viewport, hasTouch: viewport === PHONE });

// Page loads on a busy shared machine take seconds each: generous limits, conditions still awaited.
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/** A workspace of `admin` (with `member` as editor when given) and two public channels. */
async function workspace(admin: Person, member?: Person) {
  const name = `Phone ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.context.request.post('/api/workspaces', {
    data: {
      name,
      description: 'Chat on a phone',
      members: member ? [{ email: member.email, role: 'editor' }] : [],
    },
  });
  expect(created.status()).toBe(201);
  const { _id: workspaceId } = (await created.json()) as { _id: string };
  if (member) await acceptInvitations(member.context.request, { workspace: name });
  const channels: Record<string, string> = {};
  for (const channel of ['general', 'random']) {
    const res = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
      data: { name: channel, description: `The ${channel} channel`, members: [] },
    });
    expect(res.status()).toBe(201);
    channels[channel] = ((await res.json()) as { _id: string })._id;
  }
  return { name, workspaceId, channels };
}

/** The element's box lies inside the visible area (the layout viewport, which the test sizes). */
async function expectInView(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const height = await page.evaluate(() => window.visualViewport?.height ?? window.innerHeight);
  expect(box).not.toBeNull();
  expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(height);
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('on a phone', () => {
  let ada: Person;
  let bob: Person;

  test.beforeEach(async ({ browser }) => {
    ada = await phonePerson(browser, 'Ada');
    bob = await phonePerson(browser, 'Bob');
  });

  test.afterEach(async () => {
    await ada.context.close();
    await bob.context.close();
  });

  test('the menu drawer opens, traps focus, closes on Escape and on navigation', async () => {
    const { page } = ada;
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const menu = navbar(page).getByRole('button', { name: 'Menu', exact: true });
    const search = navbar(page).getByRole('combobox', { name: 'Search' });
    // Closed: the links and the search are not on the bar.
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(search).toBeHidden();

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const drawer = page.locator(`[id="${await menu.getAttribute('aria-controls')}"]`);
    await expect(drawer.getByRole('link', { name: 'Taskboard' })).toBeVisible();
    await expect(search).toBeVisible();
    // Focus is inside and stays inside, however often Tab is pressed.
    await expect(drawer.locator(':focus')).toHaveCount(1);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      await expect(drawer.locator(':focus')).toHaveCount(1);
    }
    await page.keyboard.press('Shift+Tab');
    await expect(drawer.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(search).toBeHidden();
    await expect(menu).toBeFocused();

    // Following a link closes it.
    await menu.click();
    await drawer.getByRole('link', { name: 'Taskboard' }).click();
    await expect(page).toHaveURL(/\/task$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(search).toBeHidden();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // The user menu opens inside the screen.
    await navbar(page).getByRole('button', { name: /…|@/ }).click();
    const account = page.getByRole('menu', { name: 'Account' });
    await expect(account).toBeVisible();
    const box = await account.boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('open the channels drawer, go to a channel and chat with the composer in view, keyboard up too', async () => {
    const { name, channels } = await workspace(ada, bob);
    const { page } = ada;
    await page.goto(`/workspace/${encodeURIComponent(name)}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const sidebarButton = page.getByRole('button', { name: 'Channels and people' });
    const channelLink = page.getByRole('link', { name: /random/ });
    await expect(channelLink).toBeHidden();

    await sidebarButton.click();
    await expect(sidebarButton).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('heading', { name: 'People' })).toBeVisible();
    await channelLink.click();
    await expect(page).toHaveURL(new RegExp(`/channel/${channels.random}$`));
    await expect(page.getByRole('heading', { name: 'random Chat' })).toBeVisible();
    await expect(sidebarButton).toHaveAttribute('aria-expanded', 'false');
    await expect(channelLink).toBeHidden();

    const log = page.getByRole('log', { name: 'Messages in random' });
    const composer = page.getByRole('textbox', { name: 'Message random' });
    await expect(log).toHaveAttribute('aria-busy', 'false');
    // The conversation takes the screen: the composer is in view without scrolling the page.
    await expectInView(page, composer);
    await expectInView(page, page.getByRole('button', { name: 'Send' }));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await composer.fill('Sent from my phone');
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    await expect(log.getByText('Sent from my phone')).toBeVisible();

    // Bob's answer arrives while Ada types with the on-screen keyboard up (the visible height halves).
    await page.setViewportSize({ width: PHONE.width, height: 420 });
    await composer.focus();
    const reply = await bob.context.request.post(
      `/api/workspaces/${encodeURIComponent(name)}/channels/${channels.random}/messages`,
      { data: { clientId: crypto.randomUUID(), content: 'Got it on mine too', attachments: [] } },
    );
    expect(reply.status()).toBe(201);
    await expect(log.getByText('Got it on mine too')).toBeVisible();
    await expectInView(page, composer);
    await expectInView(page, log.getByText('Got it on mine too'));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // Bob sets the topic: Ada's header follows live, with the sidebar (a closed drawer) not rendered.
    const topic = await bob.context.request.patch(
      `/api/workspaces/${encodeURIComponent(name)}/channels/${channels.random}`,
      { data: { topic: 'Phones first' } },
    );
    expect(topic.status()).toBe(200);
    await expect(page.getByTestId('channel-topic')).toHaveText('Topic: Phones first');
  });

  test('a direct conversation fills the screen with its composer in view', async () => {
    await workspace(ada, bob);
    const { page } = ada;
    await page.goto('/chat');
    await page.getByRole('textbox', { name: 'Recipient e-mail' }).fill(bob.email);
    await page.getByRole('button', { name: 'Start Chat' }).click();
    // Named, not addressed by e-mail (issue 19).
    const composer = page.getByRole('textbox', { name: 'Message Bob Tester' });
    await expect(composer).toBeVisible();
    await expectInView(page, composer);
    await composer.fill('Hello from the bus');
    await composer.press('Enter');
    await expect(page.getByRole('log').getByText('Hello from the bus')).toBeVisible();
    await expectInView(page, composer);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
});

/**
 * Every `path` in the router, read from its source so a new route cannot be left out of the check
 * below; `public` for those outside the signed-in block (its `RequireAuth` element) and the 404.
 */
function routerPaths(): Array<{ path: string; public: boolean }> {
  const source = readFileSync(new URL('../apps/web/src/app/router.tsx', import.meta.url), 'utf8');
  const signedInBlock = source.indexOf('<RequireAuth>');
  return [...source.matchAll(/\bpath: '([^']+)'/g)].map((m) => ({
    path: m[1] as string,
    public: (m.index ?? 0) < signedInBlock || m[1] === '*',
  }));
}

test('no route scrolls sideways at 390 px, signed out or in, with real data', async ({ browser }) => {
  test.setTimeout(600_000);
  const ada = await phonePerson(browser, 'Ada');
  const bob = await phonePerson(browser, 'Bob');
  const { name, workspaceId, channels } = await workspace(ada, bob);
  // Long words that do not break are what pushes a narrow page wider: give the data some.
  const notes = await ada.context.request.post(
    `/api/workspaces/${encodeURIComponent(name)}/channels/${channels.general}/messages`,
    {
      data: {
        clientId: crypto.randomUUID(),
        content: `Deploy notes: https://example.com/${'a-very-long-path-segment'.repeat(6)} and **bold**`,
        attachments: [],
      },
    },
  );
  // Saved, so /saved shows it (with its long word) too.
  const { _id: notesId } = (await notes.json()) as { _id: string };
  expect((await ada.context.request.put(`/api/saved/channel/${notesId}`)).status()).toBe(200);
  expect((await ada.context.request.post('/api/tasklists', { data: { title: 'Backlog' } })).status()).toBe(
    201,
  );
  const task = await ada.context.request.post('/api/tasks', {
    data: { title: 'Check the phone layout', description: 'Every route at 390 px', Tasklist: 'Backlog' },
  });
  expect(task.status()).toBe(201);
  const { _id: taskId } = (await task.json()) as { _id: string };
  const ws = encodeURIComponent(name);
  // Ada's personal board comes first in her board list.
  const [personalBoard] = (await (await ada.context.request.get('/api/boards')).json()) as Array<{
    _id: string;
  }>;

  // One concrete URL per route pattern.
  const urls: Record<string, string> = {
    '/': '/',
    '/login': '/login',
    '/signup': '/signup',
    '/forgot-password': '/forgot-password',
    '/reset-password': '/reset-password?token=not-a-real-token',
    '/verify-email': '/verify-email',
    '/confirm-email': '/confirm-email?token=not-a-real-token',
    '/canvas': '/canvas',
    '/pricing': '/pricing',
    '/about': '/about',
    '/contact': '/contact',
    '/mesh': '/mesh',
    '/task': '/task',
    '/task/board/:boardId': `/task/board/${personalBoard?._id}`,
    '/video': '/video',
    '/videocall': `/videocall?room=${channels.general}&workspace=${ws}`,
    '/workspace/create': '/workspace/create',
    '/dashboard': '/dashboard',
    '/workspace/:workspaceName': `/workspace/${ws}`,
    '/workspace/:workspaceName/create-channel': `/workspace/${ws}/create-channel`,
    '/workspace/:workspaceName/channel/:channelId': `/workspace/${ws}/channel/${channels.general}`,
    '/workspace/:workspaceName/settings': `/workspace/${ws}/settings`,
    '/workspace/:workspaceName/browse': `/workspace/${ws}/browse`,
    '/workspace/:workspaceId/projects': `/workspace/${workspaceId}/projects`,
    '/chat': '/chat',
    '/messages': '/messages',
    '/livechat': '/livechat',
    '/invitations': '/invitations',
    '/profile': '/profile',
    '/search': '/search?q=deploy',
    '/saved': '/saved',
    '/tasks/:taskId': `/tasks/${taskId}`,
    '*': '/no-such-page',
  };
  const routes = routerPaths();
  expect(routes.length).toBeGreaterThan(20);
  expect(routes.filter((r) => r.public).length).toBeGreaterThan(5);
  expect(routes.filter((r) => !(r.path in urls))).toEqual([]);

  const anonymous = await browser.newContext({ viewport: PHONE, hasTouch: true });
  // Signed out: the public routes (a signed-in one only redirects to /login). Signed in: all of them.
  const visitors = [
    { who: 'signed out', page: await anonymous.newPage(), paths: routes.filter((r) => r.public) },
    { who: 'signed in', page: ada.page, paths: routes },
  ];
  const wide: string[] = [];
  for (const { who, page, paths } of visitors) {
    for (const { path } of paths) {
      const url = urls[path] as string;
      await page.goto(url);
      // Wait for the page itself, not the lazy-loading placeholder: a heading in main, no "Loading...".
      const main = page.locator('#main');
      try {
        await expect(main.getByRole('heading').first()).toBeVisible({ timeout: 30_000 });
        await expect(main.getByText(/^Loading/)).toHaveCount(0, { timeout: 30_000 });
      } catch {
        wide.push(`${url} (${who}): did not finish loading`);
        continue;
      }
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) wide.push(`${url} (${who}): ${overflow}px too wide`);
    }
  }
  expect(wide).toEqual([]);
  await anonymous.close();
  await ada.context.close();
  await bob.context.close();
});

test.describe('on a desktop', () => {
  test('toasts appear bottom right, and an error shows once', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in to Cohort' })).toBeVisible({
      timeout: 30_000,
    });
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(uniqueEmail());
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    // One toast for the one failure, in the bottom right quarter (clear of the navbar, the heading and
    // the form). Read in one go: the toast goes away by itself after a few seconds.
    await expect
      .poll(() =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll('[data-sonner-toast]'), (toast) => {
            const box = toast.getBoundingClientRect();
            return box.x > window.innerWidth / 2 && box.y > window.innerHeight / 2
              ? 'bottom right'
              : 'elsewhere';
          }),
        ),
      )
      .toEqual(['bottom right']);
  });

  test('the dark theme chosen on the Taskboard applies to the whole app', async ({ browser }) => {
    const ada = await phonePerson(browser, 'Ada', { width: 1280, height: 800 });
    const { page } = ada;
    await page.goto('/task');
    await page
      .getByRole('navigation', { name: 'Taskboard sections' })
      .getByRole('button', { name: 'Settings' })
      .click();
    await page.getByRole('radio', { name: 'Dark' }).check();

    // The background's relative lightness, 0 (black) to 1 (white), whatever colour space it is written in
    // (Tailwind's palette is oklch): a canvas converts it to sRGB.
    const luminance = (locator: Locator) =>
      locator.evaluate((el) => {
        const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        ctx.fillStyle = getComputedStyle(el).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data;
        if (a === 0) return -1; // transparent: no background of its own
        return (r * 0.2126 + g * 0.7152 + b * 0.0722) / 255;
      });
    const isDark = async (locator: Locator) => {
      const value = await luminance(locator);
      return value >= 0 && value < 0.25;
    };
    const header = page.locator('header').first();
    await expect.poll(() => isDark(header)).toBe(true);

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => isDark(page.locator('#main').locator('..'))).toBe(true);
    await expect.poll(() => isDark(header)).toBe(true);
    // And back to light everywhere.
    await page.goto('/task');
    await page
      .getByRole('navigation', { name: 'Taskboard sections' })
      .getByRole('button', { name: 'Settings' })
      .click();
    await page.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(() => luminance(header)).toBeGreaterThan(0.9);
    await ada.context.close();
  });
});
