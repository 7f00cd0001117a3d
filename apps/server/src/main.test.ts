import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/local-services.ts';
import { serveCommand } from '../../../scripts/serve-command.ts';
import { buildServer } from '../build.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The server from its sources through tsx, as the tests and `npm run dev` run it, unless told otherwise. */
function start(env: Record<string, string>, args = ['--import', 'tsx', 'apps/server/src/main.ts']) {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

// Generous: a cold start (tsx transform + embedded database) on a loaded 2-core CI machine can take
// far longer than on a quiet one; the test is about locking and shutdown, not speed (bench/startup.ts).
async function waitReady(port: number, child: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

describe('the server process (npm start)', () => {
  it('locks DATA_DIR against a second server and shuts down cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cohort-data-'));
    const port = await freePort();
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    await waitReady(port, first.child);
    expect(existsSync(join(dataDir, 'cohort.lock'))).toBe(true);

    const second = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/in use by another Cohort server/);

    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`http://127.0.0.1:${port}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'A',
        lastName: 'B',
        email: 'inflight@example.com',
        password: 'correct horse battery',
      }),
    });
    await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(201);
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'cohort.lock'))).toBe(false);
    // The sign-up's verification mail was being sent: its outcome was recorded before the database
    // closed (it closed first once, and the mail drainer failed on a closed database).
    expect(first.output()).not.toMatch(/drain failed|is closed/);

    // The data survives a restart.
    const again = start({ DATA_DIR: dataDir, PORT: String(port) });
    await waitReady(port, again.child);
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'inflight@example.com', password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 240_000);

  // `npm start` runs the esbuild bundle (apps/server/build.ts) with plain node: it must find what the
  // sources find beside themselves (migrations, the PGlite template) from wherever it is written.
  // About 3 s on a quiet machine; the generous deadline is for a loaded one (the start-up time itself
  // is bench/startup.ts's business). Found migrations and template are what this checks.
  it('starts from the bundle on an empty DATA_DIR, unpacking the PGlite template', async () => {
    const distDir = join(repoRoot, 'apps', 'server', 'dist');
    mkdirSync(distDir, { recursive: true });
    // Inside the checkout: the bundle imports its packages from node_modules.
    const outdir = mkdtempSync(join(distDir, 'test-'));
    try {
      await buildServer(outdir);
      // drizzle-orm is bundled in: loaded from node_modules, its 179 KB package.json was parsed again
      // for each of its modules (~0.6 s of every start). Other packages stay external.
      const code = readdirSync(outdir)
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFileSync(join(outdir, file), 'utf8'))
        .join('\n');
      expect(code).not.toMatch(/^import .* from ["']drizzle-orm/m);
      expect(code).toMatch(/^import .* from ["']fastify["']/m);
      const port = await freePort();
      // Its own temp folder: the compiled code it keeps for the next start is found there.
      const temp = mkdtempSync(join(tmpdir(), 'cohort-tmp-'));
      // Started as `npm run serve` starts it: its node flags and variables must suit this Node.
      const serve = serveCommand();
      // Without V8's memory reducer: its 100 s watchdog shrinks a busy heap to its live size, and the
      // major collections then come every few seconds (decision 0013).
      expect(serve.args).toContain('--no-memory-reducer');
      // Each isolate collects on its own thread: a parallel scavenge waited for V8's helper threads,
      // which a busy two-processor machine had not scheduled (decision 0015).
      expect(serve.args).toContain('--single-threaded-gc');
      const server = start(
        {
          ...serve.env,
          DATA_DIR: mkdtempSync(join(tmpdir(), 'cohort-data-')),
          PORT: String(port),
          LOG_LEVEL: 'info',
          TMPDIR: temp,
        },
        [...serve.args, join(outdir, 'main.js')],
      );
      await waitReady(port, server.child, 60_000).catch((err) => {
        server.child.kill('SIGKILL');
        throw new Error(`${err.message}\n${server.output()}`);
      });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toMatchObject({ status: 'ready', database: 'pglite' });
      expect(server.output()).toMatch(/"created":"template"/);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // The next start skips compiling the server's modules (Node 22.1 and later keep them).
      if ('enableCompileCache' in module) {
        const kept = join(temp, 'node-compile-cache');
        expect(existsSync(kept) && readdirSync(kept).length).toBeGreaterThan(0);
      }
      rmSync(temp, { recursive: true, force: true });
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 90_000);
});
