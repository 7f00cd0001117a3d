import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import type { GithubClient } from './github.client.ts';
import { dueProjectIds, syncProject } from './projects.service.ts';

/** How often a node looks for projects due a re-sync (the interval itself is GITHUB_SYNC_MINUTES). */
const TICK_MS = 60_000;
const BATCH = 20;

export interface ProjectSync {
  /** Syncs every project due now (one batch); resolves when done. Tests call it directly. */
  runDue(): Promise<number>;
  stop(): void;
}

/**
 * Background re-sync. Every node ticks; a project is synced only by the node that takes its lease
 * (an atomic conditional UPDATE), so several nodes never sync the same project at once.
 */
export function startProjectSync(ctx: AppContext, github: GithubClient): ProjectSync {
  const intervalMs = ctx.config.GITHUB_SYNC_MINUTES * 60_000;
  let running: Promise<number> | null = null;

  async function runBatch() {
    let synced = 0;
    for (const id of await dueProjectIds(ctx, intervalMs, BATCH)) {
      try {
        const dueBefore = new Date(ctx.now().getTime() - intervalMs);
        if (await syncProject(ctx, github, id, { dueBefore })) synced++;
      } catch (err) {
        // GitHub's failures are recorded on the project; only the unexpected is logged as an error.
        if (err instanceof HttpError)
          ctx.log.warn({ projectId: id, err: err.message }, 'project sync failed');
        else ctx.log.error({ err, projectId: id }, 'project sync failed');
      }
    }
    return synced;
  }

  function runDue() {
    // One batch at a time per node; a tick that finds one running waits for it.
    running ??= runBatch().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => {
    runDue().catch((err) => ctx.log.error({ err }, 'project sync tick failed'));
  }, TICK_MS);
  timer.unref();

  return { runDue, stop: () => clearInterval(timer) };
}
