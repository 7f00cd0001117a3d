import type { APIRequestContext, Page } from '@playwright/test';

/** A fresh e-mail per test so tests never depend on each other's accounts. */
export function uniqueEmail() {
  return `user-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;
}

export const PASSWORD = 'correct horse battery staple';

/** Creates an account through the API (no Origin header: a non-browser client, as the server allows). */
export async function createAccount(request: APIRequestContext, email: string, password = PASSWORD) {
  const response = await request.post('/api/signup', {
    data: { firstName: 'Ada', lastName: 'Lovelace', email, password },
  });
  if (response.status() !== 201)
    throw new Error(`signup failed: ${response.status()} ${await response.text()}`);
}

/** The main navigation bar, where the signed-in state shows. */
export function navbar(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}
