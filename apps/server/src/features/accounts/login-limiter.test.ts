import { ACCOUNT_MESSAGES } from '@cohort/shared/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  ACCOUNT_CEILING,
  ACCOUNT_SLOW_INTERVAL_MS,
  MAX_FAILED_LOGINS,
  MAX_FAILED_PER_ADDRESS,
} from './login-limiter.ts';

/**
 * The sign-in throttle under concurrency. Outcomes are counted, never timed: a busy machine changes
 * how long a burst takes, not how many of its guesses may be checked.
 */

let t: TestApp;
beforeAll(async () => {
  // Client addresses come from X-Forwarded-For here, so one test can speak from many addresses.
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(() => t.close());

let lastOctet = 0;
const freshAddress = () => `10.9.${Math.floor(++lastOctet / 250)}.${lastOctet % 250}`;

const login = (user: TestUser, password: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'x-forwarded-for': ip },
    payload: { email: user.email, password },
  });

describe('a burst of parallel guesses', () => {
  it('checks at most MAX_FAILED_LOGINS wrong ones and refuses the rest, whatever arrives at once', async () => {
    const victim = await createUser(t.app);
    const ip = freshAddress();
    const burst = Array.from({ length: 40 }, (_, i) =>
      login(victim, i === 25 ? victim.password : `wrong guess ${i}`, ip),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.statusCode);
    // Every check was reserved before argon2 ran: at most 10 wrong guesses were ever evaluated. The
    // right password inside the burst is one more check only if it was reserved before the tenth
    // failure (a success gives its reservation back), as it would be one at a time.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(MAX_FAILED_LOGINS + 1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - MAX_FAILED_LOGINS - 1);
    // The address that guessed is now refused even with the right password...
    const after = await login(victim, victim.password, ip);
    expect(after.statusCode).toBe(429);
    expect(after.json().message).toBe(ACCOUNT_MESSAGES.tooManyAttempts);
    // ...while the owner, from an address without failures, still signs in.
    expect((await login(victim, victim.password, freshAddress())).statusCode).toBe(200);
  });

  it('a success gives its reservation back: the owner is never counted against', async () => {
    const owner = await createUser(t.app);
    const ip = freshAddress();
    for (let i = 0; i < MAX_FAILED_LOGINS + 5; i++) {
      expect((await login(owner, owner.password, ip)).statusCode).toBe(200);
    }
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) await login(owner, 'nope', ip);
    expect((await login(owner, owner.password, ip)).statusCode).toBe(200);
  });
});

describe('an attacker spread over many addresses', () => {
  it('cannot lock the owner out: past the account ceiling sign-in is slowed to one check per interval', async () => {
    const victim = await createUser(t.app);
    // Spread over addresses so no (account, address) pair and no address hits its own limit.
    const perAddress = MAX_FAILED_LOGINS - 1;
    const addresses = Math.ceil(ACCOUNT_CEILING / perAddress);
    for (let a = 0; a < addresses; a++) {
      const ip = freshAddress();
      const round = Array.from({ length: perAddress }, (_, i) => login(victim, `guess ${a}-${i}`, ip));
      for (const res of await Promise.all(round)) expect([401, 429]).toContain(res.statusCode);
    }
    const slowed = await login(victim, victim.password, freshAddress());
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toBe(ACCOUNT_MESSAGES.signInSlowed);

    t.advance(ACCOUNT_SLOW_INTERVAL_MS);
    // One check per interval: of two parallel tries, one runs (and the owner's right password wins).
    const [first, second] = await Promise.all([
      login(victim, victim.password, freshAddress()),
      login(victim, victim.password, freshAddress()),
    ]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 429]);
  });

  it('one address guessing across many accounts is refused after MAX_FAILED_PER_ADDRESS', async () => {
    const ip = freshAddress();
    const people = await Promise.all(Array.from({ length: 6 }, () => createUser(t.app)));
    const guesses = people.flatMap((p) => Array.from({ length: 9 }, (_, i) => login(p, `x${i}`, ip)));
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILED_PER_ADDRESS);
    expect((await login(people[0] as TestUser, (people[0] as TestUser).password, ip)).statusCode).toBe(429);
  });
});
