import { EMAIL_MESSAGES, emailSchema } from '@cohort/shared/accounts';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { AppContext } from '../../context.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

export interface GoogleIdentity {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
}

let jwks: { url: string; get: ReturnType<typeof createRemoteJWKSet> } | undefined;

/**
 * Verifies a Google Identity Services ID token: signature against Google's JWKS, issuer, audience
 * (our client id), expiry and a verified e-mail. Only then is its e-mail trusted.
 */
export async function verifyGoogleCredential(ctx: AppContext, credential: string): Promise<GoogleIdentity> {
  const clientId = ctx.config.GOOGLE_CLIENT_ID;
  if (!clientId) throw new HttpError(400, 'Google sign-in is not configured on this server');
  if (jwks?.url !== ctx.config.GOOGLE_JWKS_URL) {
    jwks = { url: ctx.config.GOOGLE_JWKS_URL, get: createRemoteJWKSet(new URL(ctx.config.GOOGLE_JWKS_URL)) };
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(credential, jwks.get, {
      issuer: GOOGLE_ISSUERS,
      audience: clientId,
      algorithms: ['RS256'],
      currentDate: ctx.now(),
    }));
  } catch (err) {
    ctx.log.info({ err: (err as Error).message }, 'rejected Google credential');
    throw unauthorized('Invalid Google credential');
  }
  const { sub, email, email_verified: verified } = payload;
  if (typeof sub !== 'string' || sub === '' || typeof email !== 'string') {
    throw unauthorized('Invalid Google credential');
  }
  // Only an address Google checked identifies a person here (it may be linked to an existing account).
  if (verified !== true) throw unauthorized(EMAIL_MESSAGES.googleUnverified);
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw unauthorized(EMAIL_MESSAGES.googleBadEmail);
  const [firstName, lastName] = splitName(payload);
  return { sub, email: parsed.data, firstName, lastName };
}

/** The spec's rule: the display name's first word is the first name, the rest the last name. */
function splitName(payload: Record<string, unknown>): [string, string] {
  const name = typeof payload.name === 'string' ? payload.name.trim() : '';
  if (name) {
    const [first = '', ...rest] = name.split(/\s+/);
    return [first, rest.join(' ')];
  }
  const given = typeof payload.given_name === 'string' ? payload.given_name : '';
  const family = typeof payload.family_name === 'string' ? payload.family_name : '';
  return [given, family];
}
