import type { Config } from '../../config.ts';
import { notFound } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';

/**
 * There is no global admin role in Cohort (roles are per workspace); the outbox belongs to whoever
 * runs the server. An operator is a signed-in account whose verified address is listed in
 * ADMIN_EMAILS. Everyone else gets 404, as if the route did not exist.
 */
export function isOperator(config: Config, user: SessionUser): boolean {
  return user.emailVerified && config.ADMIN_EMAILS.includes(user.email.toLowerCase());
}

export function authorizeOperator(config: Config, user: SessionUser): void {
  if (!isOperator(config, user)) throw notFound();
}
