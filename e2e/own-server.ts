import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopProcess, waitFor } from '../scripts/local-services.ts';
import { TEST_SERVER_ARGS, testServerEnv } from './test-server.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface OwnServer {
  baseURL: string;
  /** Its DATA_DIR (sign-up links are read from its outbox). */
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * A Cohort server of a journey's own, on PGlite in `dir`, for settings the shared e2e server does
 * not have (TURN, Janus), with the shared server's settings (`testServerEnv`).
 */
export async function startOwnServer(dir: string, env: Record<string, string>): Promise<OwnServer> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = join(dir, 'data');
  let output = '';
  const app = spawn(process.execPath, TEST_SERVER_ARGS, {
    cwd: repoRoot,
    env: { ...process.env, ...testServerEnv(port, dataDir), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  app.stdout?.on('data', (d) => {
    output += d;
  });
  app.stderr?.on('data', (d) => {
    output += d;
  });
  await waitFor(
    'the app server',
    async () => (await fetch(`${baseURL}/readyz`)).ok,
    app,
    () => output,
  );
  return { baseURL, dataDir, stop: () => stopProcess(app) };
}
