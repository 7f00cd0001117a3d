import { createHmac, timingSafeEqual } from 'node:crypto';
import { apiError } from '@cohort/shared/errors';
import { isValidRepositoryRef, PROJECT_MESSAGES } from '@cohort/shared/projects';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { githubWebOrigin, issueData, pullRequestData } from './github.client.ts';
import { applyItemEvent } from './projects.service.ts';

/** X-Hub-Signature-256: `sha256=` and the hex HMAC-SHA256 of the raw body with the webhook secret. */
export function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header ?? '')?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

const user = z.object({ login: z.string() }).nullish();
const repository = z.object({ name: z.string(), owner: z.object({ login: z.string() }) });
const item = {
  number: z.number().int(),
  title: z.string(),
  html_url: z.string(),
  state: z.string(),
  user,
  created_at: z.string(),
  updated_at: z.string(),
};
const pullRequestEvent = z.object({
  action: z.string(),
  repository,
  pull_request: z.object({ ...item, merged_at: z.string().nullish() }),
});
const issuesEvent = z.object({
  action: z.string(),
  repository,
  issue: z.object({ ...item, pull_request: z.unknown().optional() }),
});

/**
 * POST /api/github/webhook: GitHub's `pull_request` and `issues` deliveries update the item at once
 * in every project linking the repository. Only a body signed with GITHUB_WEBHOOK_SECRET is read;
 * GitHub sends no Origin header, so the cross-site guard lets it through like any API client.
 */
export const githubWebhookRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // The signature covers the exact bytes: this route (only) keeps the JSON body raw.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });

    app.post(
      '/api/github/webhook',
      {
        schema: {
          tags: ['projects'],
          security: [],
          response: {
            204: z.null().describe('Applied or ignored'),
            400: apiError,
            401: apiError,
            404: apiError,
          },
        },
      },
      async (request, reply) => {
        const secret = ctx.config.GITHUB_WEBHOOK_SECRET;
        if (!secret) throw notFound(PROJECT_MESSAGES.webhookNotConfigured);
        const webOrigin = githubWebOrigin(ctx.config.GITHUB_API_URL, ctx.config.GITHUB_WEB_URL);
        const body = request.body;
        if (!Buffer.isBuffer(body)) throw badRequest('Send the delivery as application/json');
        const signature = request.headers['x-hub-signature-256'];
        if (!verifySignature(secret, body, typeof signature === 'string' ? signature : undefined)) {
          throw new HttpError(401, PROJECT_MESSAGES.webhookSignatureInvalid);
        }
        let payload: unknown;
        try {
          payload = JSON.parse(body.toString('utf8'));
        } catch {
          throw badRequest('Malformed JSON body');
        }
        const event = request.headers['x-github-event'];
        if (event === 'pull_request') {
          const parsed = pullRequestEvent.safeParse(payload);
          if (!parsed.success) throw badRequest('Unexpected pull_request payload');
          const { repository: repo, pull_request: pr } = parsed.data;
          const ref = { owner: repo.owner.login, repo: repo.name };
          if (isValidRepositoryRef(ref))
            await applyItemEvent(ctx, ref, 'pullrequest', pullRequestData(pr, { webOrigin, ref }), false);
        } else if (event === 'issues') {
          const parsed = issuesEvent.safeParse(payload);
          if (!parsed.success) throw badRequest('Unexpected issues payload');
          const { action, repository: repo, issue } = parsed.data;
          const ref = { owner: repo.owner.login, repo: repo.name };
          // An issue moved to another repository or deleted is gone from this one.
          const gone = action === 'deleted' || action === 'transferred';
          if (isValidRepositoryRef(ref) && !issue.pull_request) {
            await applyItemEvent(ctx, ref, 'issue', issueData(issue, { webOrigin, ref }), gone);
          }
        }
        // ping and every other event: accepted and ignored.
        return reply.status(204).send(null);
      },
    );
  };
