import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/**
 * A stand-in for Google's token issuer: serves a JWKS over HTTP like
 * https://www.googleapis.com/oauth2/v3/certs and signs Google-shaped ID tokens with its key.
 */
type SigningKey = Parameters<SignJWT['sign']>[0];

export async function startFakeGoogle(clientId: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'fake-google-1', alg: 'RS256', use: 'sig' };
  const server: Server = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** Signs claims; defaults are those of a valid token for `clientId`. */
  async function sign(
    claims: Record<string, unknown> = {},
    opts: { key?: SigningKey; expiresIn?: string | number; kid?: string } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      email: 'g.user@example.com',
      email_verified: true,
      name: 'Grace Brewster Hopper',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'fake-google-1' })
      .setIssuer((claims.iss as string) ?? 'https://accounts.google.com')
      .setAudience((claims.aud as string) ?? clientId)
      .setSubject((claims.sub as string) ?? '1234567890')
      .setIssuedAt(now - 10)
      .setExpirationTime(opts.expiresIn ?? now + 3600)
      .sign(opts.key ?? privateKey);
  }

  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
