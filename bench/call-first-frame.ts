// One-to-one call on loopback: time from pressing Call on /video to the first remote video frame
// at the caller (requestVideoFrameCallback), in Debian's Chromium with fake media devices. The
// callee's page accepts as soon as the call rings, so the number is the system's: offer, signalling,
// ICE on loopback, DTLS, first decoded frame. Median of RUNS (default 10) calls.
//
//   node --import tsx bench/call-first-frame.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { freePort } from '../scripts/local-services.ts';
import { acceptInvitation, repoRoot, report, verifyFromOutbox } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 10);
const PASSWORD = 'correct horse battery staple';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'cohort-bench-call-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repoRoot,
  // No STUN: loopback needs host candidates only (and the machine may be offline).
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    STUN_URLS: '',
  },
  stdio: 'ignore',
});
const exited = new Promise((resolve) => server.on('exit', resolve));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ],
});

async function signedIn(
  name: string,
): Promise<{ email: string; token: string; context: BrowserContext; page: Page }> {
  const email = `${name}-${Date.now()}@example.com`;
  const context = await browser.newContext({ baseURL: base });
  const signup = await context.request.post('/api/signup', {
    data: { firstName: name, lastName: 'Bench', email, password: PASSWORD },
  });
  if (signup.status() !== 201) throw new Error(`signup: ${signup.status()}`);
  // Verified, so that the callee can accept the workspace's invitation.
  await verifyFromOutbox(base, dataDir, email);
  const login = await context.request.post('/api/login', { data: { email, password: PASSWORD } });
  const { token } = (await login.json()) as { token: string };
  const page = await context.newPage();
  page.on('crash', () => console.error(`${name}'s page crashed`));
  await page.goto('/video');
  await page.locator('[data-testid="video-call"][data-signalling="connected"]').waitFor();
  return { email, token, context, page };
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {}
    if (i > 600) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const caller = await signedIn('caller');
  const callee = await signedIn('callee');
  const workspace = await caller.context.request.post('/api/workspaces', {
    data: {
      name: `Bench ${Date.now()}`,
      description: 'bench',
      members: [{ email: callee.email, role: 'viewer' }],
    },
  });
  if (workspace.status() !== 201) throw new Error(`workspace: ${workspace.status()}`);
  // Calls ring only between people who share a workspace: the callee accepts the invitation.
  await acceptInvitation(base, callee.token, ((await workspace.json()) as { _id: string })._id);

  // The callee answers the moment the call rings.
  await callee.page.evaluate(() => {
    new MutationObserver(() => {
      const accept = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Accept');
      accept?.click();
    }).observe(document.body, { childList: true, subtree: true });
  });

  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await caller.page.getByPlaceholder('Enter email ID to call').fill(callee.email);
    const ms = await caller.page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
          const call = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Call');
          if (!video || !call) return reject(new Error('no /video screen'));
          const started = performance.now();
          // Fires at the first frame presented from the stream the call attaches (inline arrows only:
          // tsx would wrap named functions in a helper the page does not have).
          video.requestVideoFrameCallback(() => resolve(performance.now() - started));
          call.click();
          setTimeout(() => {
            const screen = document.querySelector<HTMLElement>('[data-testid="video-call"]');
            const said = [...document.querySelectorAll('[role="alert"],[role="status"]')].map(
              (e) => e.textContent,
            );
            reject(new Error(`no remote frame in 15 s: ${JSON.stringify({ ...screen?.dataset, said })}`));
          }, 15_000);
        }),
    );
    times.push(ms);
    console.log(`run ${run + 1}: ${Math.round(ms)} ms`);
    await caller.page.getByRole('button', { name: 'End Call' }).click();
    for (const p of [caller.page, callee.page]) {
      await p.locator('[data-testid="video-call"][data-phase="idle"]').waitFor();
    }
  }

  const sorted = [...times].sort((a, b) => a - b);
  const median = ((sorted[Math.floor((RUNS - 1) / 2)] ?? 0) + (sorted[Math.ceil((RUNS - 1) / 2)] ?? 0)) / 2;
  report('call-first-frame', [
    {
      runs: RUNS,
      median_ms: Math.round(median),
      min_ms: Math.round(sorted[0] ?? 0),
      max_ms: Math.round(sorted.at(-1) ?? 0),
      all_ms: times.map((t) => Math.round(t)).join(' '),
    },
  ]);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
