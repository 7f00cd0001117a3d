import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { appContexts } from '../src/app.ts';
import { users } from '../src/db/schema.ts';

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

export interface TestUser {
  email: string;
  password: string;
  token: string;
  id: string;
  auth: { authorization: string };
}

/**
 * Every user `createUser` made in this test file, by lower-cased e-mail: the workspace fixtures accept
 * invitations on their behalf (apps/server/src/features/workspaces/test-fixtures.ts).
 */
const testUsers = new Map<string, TestUser>();

/** The user `createUser` made with this e-mail, if any. */
export const testUserByEmail = (email: string): TestUser | undefined => testUsers.get(email.toLowerCase());

/**
 * Signs up and logs in through the public API, as a person would. The address counts as verified
 * unless `verified: false` (the verification flow itself is tested in the accounts suite).
 */
export async function createUser(
  app: FastifyInstance,
  overrides: {
    email?: string;
    password?: string;
    firstName?: string;
    lastName?: string;
    verified?: boolean;
  } = {},
): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const signup = await app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: {
      firstName: overrides.firstName ?? 'Test',
      lastName: overrides.lastName ?? 'User',
      email,
      password,
    },
  });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
  if (overrides.verified !== false) {
    const ctx = appContexts.get(app);
    if (!ctx) throw new Error('createUser: not an app built by buildApp');
    await ctx.db
      .update(users)
      .set({ emailVerifiedAt: ctx.now() })
      .where(eq(users.email, email.toLowerCase()));
  }
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const token = login.json().token as string;
  const me = await app.inject({
    method: 'GET',
    url: '/api/me',
    headers: { authorization: `Bearer ${token}` },
  });
  const user = { email, password, token, id: me.json().user._id, auth: { authorization: `Bearer ${token}` } };
  testUsers.set(email.toLowerCase(), user);
  return user;
}
