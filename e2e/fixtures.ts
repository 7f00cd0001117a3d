import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  expect,
  type Locator,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import { linkTo, waitForMail } from './mail.ts';

/** A fresh e-mail per test so tests never depend on each other's accounts. */
export function uniqueEmail() {
  return `user-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;
}

export const PASSWORD = 'correct horse battery staple';

export interface Person {
  email: string;
  /** "First Last", as the app shows it. */
  name: string;
  context: BrowserContext;
  page: Page;
}

/**
 * A verified, signed-in user in a browser context of their own (its cookie jar is theirs), with one
 * page open. `options` for a phone's viewport and the like.
 */
export async function person(
  browser: Browser,
  firstName: string,
  lastName = 'Tester',
  options: BrowserContextOptions = {},
): Promise<Person> {
  const email = uniqueEmail();
  const context = await browser.newContext(options);
  await createAccount(context.request, email, PASSWORD, { firstName, lastName });
  const login = await context.request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return { email, name: `${firstName} ${lastName}`, context, page: await context.newPage() };
}

/**
 * Creates an account through the API (no Origin header: a non-browser client, as the server allows)
 * and verifies its address the real way: the link from the verification mail the server sent.
 * `verify: false` leaves it unverified (for the journeys about verification itself).
 */
export async function createAccount(
  request: APIRequestContext,
  email: string,
  password = PASSWORD,
  opts: { firstName?: string; lastName?: string; verify?: boolean; dataDir?: string } = {},
) {
  const response = await request.post('/api/signup', {
    data: { firstName: opts.firstName ?? 'Ada', lastName: opts.lastName ?? 'Lovelace', email, password },
  });
  if (response.status() !== 201)
    throw new Error(`signup failed: ${response.status()} ${await response.text()}`);
  if (opts.verify !== false) await verifyAddress(request, email, opts.dataDir);
}

/**
 * Follows the link of the newest verification mail to `email` (what /verify-email does in the
 * browser). `dataDir`: the DATA_DIR of a server the journey started itself (default: the e2e server's).
 */
export async function verifyAddress(request: APIRequestContext, email: string, dataDir?: string) {
  const mail = await waitForMail(email, { kind: 'verify_email', ...(dataDir ? { dataDir } : {}) });
  const token = new URL(linkTo(mail, '/verify-email')).searchParams.get('token');
  const verified = await request.post('/api/account/verify-email', { data: { token } });
  if (verified.status() !== 200)
    throw new Error(`verification failed: ${verified.status()} ${await verified.text()}`);
}

/**
 * The invitee whose session `request` carries (a signed-in browser context's request) accepts their
 * pending invitations through the API, as the /invitations page does: all of them, or only the one to
 * `workspace` (its name or id). Adding someone to a workspace only invites them; this is how they join.
 */
export async function acceptInvitations(request: APIRequestContext, opts: { workspace?: string } = {}) {
  const listed = await request.get('/api/invitations');
  if (listed.status() !== 200) throw new Error(`invitations: ${listed.status()} ${await listed.text()}`);
  const key = opts.workspace?.toLowerCase();
  const mine = (
    (await listed.json()) as Array<{ _id: string; workspace: { _id: string; name: string } }>
  ).filter((i) => key === undefined || i.workspace._id === key || i.workspace.name.toLowerCase() === key);
  if (mine.length === 0) throw new Error(`no pending invitation${key ? ` to ${opts.workspace}` : ''}`);
  for (const invitation of mine) {
    const accepted = await request.post(`/api/invitations/${invitation._id}/accept`, { data: {} });
    if (accepted.status() !== 200)
      throw new Error(`accepting failed: ${accepted.status()} ${await accepted.text()}`);
  }
}

/**
 * `acceptInvitations` for someone who is not signed in anywhere the test can reach: signs `email` in
 * on an API context of its own (the test's other sessions are left alone), accepts, signs out.
 */
export async function acceptInvitationsAs(
  email: string,
  opts: { password?: string; workspace?: string; baseURL?: string } = {},
) {
  const api = await playwrightRequest.newContext({
    baseURL: opts.baseURL ?? test.info().project.use.baseURL,
  });
  try {
    const login = await api.post('/api/login', { data: { email, password: opts.password ?? PASSWORD } });
    if (login.status() !== 200) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
    await acceptInvitations(api, opts.workspace === undefined ? {} : { workspace: opts.workspace });
  } finally {
    await api.dispose();
  }
}

/** The main navigation bar, where the signed-in state shows. */
export function navbar(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/**
 * A message's action button (they show while the pointer is over the message). Hovers again until the
 * button shows: a message can move from under the pointer after the hover (the list settling at its
 * bottom, a late banner), and a click never hovers by itself.
 */
export async function messageAction(message: Locator, name: string) {
  const button = message.getByRole('button', { name, exact: true });
  await expect(async () => {
    await message.hover();
    await expect(button).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return button;
}
