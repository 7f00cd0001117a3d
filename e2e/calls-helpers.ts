import { type Browser, type BrowserContext, expect, type Locator, type Page } from '@playwright/test';
import { acceptInvitations, createAccount, PASSWORD, uniqueEmail } from './fixtures.ts';

/** People, teams and the /video screen for the calls journeys (calls.spec.ts, calls-turn.spec.ts). */

export interface Person {
  email: string;
  name: string;
  context: BrowserContext;
  page: Page;
}

/**
 * Signs up (verified through the mailed link) with a distinct name and signs the browser context in
 * through the API (its cookie jar). `baseURL`/`dataDir`: a server the journey started itself.
 */
export async function person(
  browser: Browser,
  firstName: string,
  baseURL?: string,
  dataDir?: string,
): Promise<Person> {
  const email = uniqueEmail();
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  await createAccount(context.request, email, PASSWORD, {
    firstName,
    lastName: 'Tester',
    ...(dataDir ? { dataDir } : {}),
  });
  const login = await context.request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return { email, name: `${firstName} Tester`, context, page: await context.newPage() };
}

/** A workspace of `admin` with the others as editors (invited, and accepting), and one public channel in it. */
export async function team(admin: Person, others: Person[]) {
  const name = `Calls ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.context.request.post('/api/workspaces', {
    data: {
      name,
      description: 'Calls journeys',
      members: others.map((o) => ({ email: o.email, role: 'editor' })),
    },
  });
  expect(created.status()).toBe(201);
  // Adding invites: each of the others accepts (signed in on their own context).
  for (const other of others) await acceptInvitations(other.context.request, { workspace: name });
  const channel = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Everyone', members: [] },
  });
  expect(channel.status()).toBe(201);
  const { _id } = (await channel.json()) as { _id: string };
  return { workspaceName: name, channelId: _id };
}

export const callScreen = (page: Page) => page.getByTestId('video-call');

/** Opens /video and waits until its signalling connection is up (calls ring only then). */
export async function openVideo(p: Person) {
  await p.page.goto('/video');
  // A cold page load on a busy two-core machine can take well over the default 10 s.
  await expect(p.page.getByText(`Your ID: ${p.email}`)).toBeVisible({ timeout: 60_000 });
  await expect(callScreen(p.page)).toHaveAttribute('data-signalling', 'connected', { timeout: 30_000 });
}

export async function dial(from: Person, to: Person) {
  await from.page.getByPlaceholder('Enter email ID to call').fill(to.email);
  await from.page.getByRole('button', { name: 'Call', exact: true }).click();
}

/** Frames decoded by a <video> (the remote stream really plays). */
export async function expectFrames(video: Locator) {
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
}

/** Both sides connected, and each one's remote video decodes frames. */
export async function expectConnected(a: Person, b: Person) {
  for (const p of [a, b]) {
    await expect(callScreen(p.page)).toHaveAttribute('data-phase', 'in-call', { timeout: 30_000 });
    await expect(callScreen(p.page)).toHaveAttribute('data-connection', 'connected', { timeout: 30_000 });
    await expectFrames(p.page.getByTestId('remote-video'));
  }
}
