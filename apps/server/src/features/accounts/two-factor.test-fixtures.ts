import { generate } from 'otplib';
import type { TestUser } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { TOTP_PERIOD_SECONDS } from './two-factor.codes.ts';

/** Test helpers for two-factor sign-in (not a test file itself): an authenticator app, in code. */

/** The code an authenticator app shows at `at` (the test app's clock by default). */
export const totpAt = (secret: string, at: Date) =>
  generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

/**
 * Moves the test clock to the middle of the next time step and returns the code shown there (a used
 * step never works twice). The test clock is real time plus an offset, so a code computed near a
 * step's edge could belong to the neighbouring step by the time the server checks it; from the middle,
 * codes a test derives (one step behind or ahead) keep their step for 15 s of real time.
 */
export async function nextTotp(t: TestApp, secret: string) {
  const period = TOTP_PERIOD_SECONDS * 1000;
  t.advance(period - (t.ctx.now().getTime() % period) + period / 2);
  return totpAt(secret, t.ctx.now());
}

/** Turns two-factor sign-in on for `user` through the API, as Profile → Security does. */
export async function turnOnTwoFactor(t: TestApp, user: TestUser) {
  const setup = await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: user.auth });
  if (setup.statusCode !== 200) throw new Error(`2FA setup failed: ${setup.statusCode} ${setup.body}`);
  const { secret } = setup.json() as { secret: string };
  const enable = await t.app.inject({
    method: 'POST',
    url: '/api/2fa/enable',
    headers: user.auth,
    payload: { code: await nextTotp(t, secret) },
  });
  if (enable.statusCode !== 200) throw new Error(`2FA enable failed: ${enable.statusCode} ${enable.body}`);
  return { secret, recoveryCodes: (enable.json() as { recoveryCodes: string[] }).recoveryCodes };
}
