import type { FastifyInstance, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard. A browser names the page's origin on every state-changing
 * request; one naming another site is refused. Requests without `Origin` come from non-browser
 * clients (which authenticate with a Bearer token, not an ambient cookie) and are allowed.
 */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined, publicUrl?: string) {
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (publicUrl && parsed.origin === new URL(publicUrl).origin) return true;
  if (!host) return false;
  try {
    // Normalise both sides the same way (default ports dropped, case folded).
    return parsed.host === new URL(`${parsed.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

export function registerOriginGuard(app: FastifyInstance, publicUrl?: string) {
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!isAllowedOrigin(request.headers.origin, request.headers.host, publicUrl)) {
      return reply.status(403).send({ message: 'Cross-site request refused' });
    }
  });
}
