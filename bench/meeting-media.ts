import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { MESH_ROOM_MAX } from '@cohort/shared/calls.constants';
import { chromium, type Page } from 'playwright-core';
import { fakeMediaLaunchOptions } from '../scripts/chromium.ts';
import { hasJanus, type LocalJanus, startJanus } from '../scripts/janus-local.ts';
import {
  type BenchServer,
  type BenchUser,
  call,
  cpuSeconds,
  median,
  repoRoot,
  SERVER_BUNDLE,
  signUpUsers,
  sleep,
  startServer,
  workspaceWithMembers,
} from './lib.ts';

const SIZES = (process.env.SIZES ?? '4,8,16')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 2);
const MODES = (process.env.MODES ?? 'mesh,sfu').split(',') as Mode[];
const WINDOW_S = Number(process.env.WINDOW_S ?? 20);
const SETTLE_S = Number(process.env.SETTLE_S ?? 10);
const FRAMES_TIMEOUT_S = Number(process.env.FRAMES_TIMEOUT_S ?? 240);
const JOIN_TIMEOUT_S = Number(process.env.JOIN_TIMEOUT_S ?? 120);
/** signUpUsers's password. */
const PASSWORD = 'correct horse battery';

type Mode = 'mesh' | 'sfu';

/** The mesh's sizes: those it holds, and its maximum when a larger size was asked for. */
const meshSizes = [
  ...new Set([
    ...SIZES.filter((n) => n <= MESH_ROOM_MAX),
    ...(SIZES.some((n) => n > MESH_ROOM_MAX) ? [MESH_ROOM_MAX] : []),
  ]),
].sort((a, b) => a - b);
const sfuSizes = [...new Set(SIZES)].sort((a, b) => a - b);

// -- The machine ----------------------------------------------------------------------------------

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const load = () => loadavg().map((l) => round(l, 2));

/** Busy and total jiffies of the whole machine (/proc/stat), for its busy share over a window. */
function machineTicks() {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle, iowait
  return { busy: total - idle, total };
}

/** Every process in /proc with its parent. */
function processTable(): Map<number, { ppid: number; comm: string }> {
  const table = new Map<number, { ppid: number; comm: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.set(Number(name), { ppid, comm });
    } catch {} // exited meanwhile
  }
  return table;
}

/** `root` and all its descendants. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of processTable()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop() as number;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU seconds of each process of a tree now (processes that are gone are left out). */
function treeCpu(root: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of processTree(root)) {
    try {
      out.set(pid, cpuSeconds(pid));
    } catch {}
  }
  return out;
}

/** CPU seconds the tree used between two snapshots; processes born meanwhile count from zero. */
function treeCpuDelta(before: Map<number, number>, after: Map<number, number>) {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

/** The Janus process startJanus() spawned (a child of this process). */
function janusPid(): number {
  const mine = [...processTable()].filter(([, p]) => p.ppid === process.pid && p.comm === 'janus');
  const pid = mine.at(-1)?.[0];
  if (pid === undefined) throw new Error('no janus child process');
  return pid;
}

/**
 * A copy of the web build (apps/web/dist) in `dir`, for WEB_DIST: others rebuild the checkout while
 * this runs, and a page whose assets changed under the server would not load. Taken once the build
 * has been still for 10 s and every asset index.html names is there.
 */
async function snapshotWebBuild(dir: string): Promise<{ path: string; builtAt: Date }> {
  const dist = join(repoRoot, 'apps', 'web', 'dist');
  const path = join(dir, 'web');
  const newest = () => {
    const files = existsSync(dist) ? (readdirSync(dist, { recursive: true }) as string[]) : [];
    return Math.max(
      0,
      ...files.map((f) => statSync(join(dist, f), { throwIfNoEntry: false })?.mtimeMs ?? Date.now()),
    );
  };
  const until = Date.now() + 300_000;
  for (;;) {
    const before = newest();
    if (existsSync(join(dist, 'index.html')) && Date.now() - before > 10_000) {
      rmSync(path, { recursive: true, force: true });
      cpSync(dist, path, { recursive: true });
      const named = [
        ...readFileSync(join(path, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g),
      ];
      if (newest() === before && named.every((m) => existsSync(join(path, m[1] as string)))) {
        return { path, builtAt: new Date(before) };
      }
    }
    if (Date.now() > until)
      throw new Error('meeting-media: apps/web/dist did not hold still for 10 s in 5 minutes');
    await sleep(2000);
  }
}

// -- Servers ----------------------------------------------------------------------------------------

/** The built Cohort server (npm run build) on PGlite, serving the copied web build. */
const startBuiltServer = (env: Record<string, string>): Promise<BenchServer> =>
  startServer({
    entry: 'bundle',
    prefix: 'cohort-bench-meeting-',
    // No STUN: everything is on loopback (and the machine may be offline).
    env: { GOOGLE_CLIENT_ID: '', STUN_URLS: '', WEB_DIST: web.path, ...env },
  });

// -- Pages ------------------------------------------------------------------------------------------

// Strings, not functions: tsx would wrap named functions in a helper the pages do not have.

/** Keeps every RTCPeerConnection the page makes in window.__pcs. */
const KEEP_PEER_CONNECTIONS = `(() => {
  const Native = window.RTCPeerConnection;
  const made = [];
  window.__pcs = made;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      made.push(this);
    }
  };
})()`;

interface PageStats {
  /** Wall clock in the page when the stats were read, ms. */
  at: number;
  peerConnections: number;
  /** Σ bytesSent + headerBytesSent of every outbound-rtp. */
  sentBytes: number;
  videoOut: number;
  framesEncoded: number;
  videoIn: number;
  framesDecoded: number;
  /** Of each outbound video stream: its qualityLimitationReason and frame size. */
  limits: string[];
  sizes: string[];
}

const READ_STATS = `(async () => {
  const out = { at: Date.now(), peerConnections: 0, sentBytes: 0, videoOut: 0, framesEncoded: 0, videoIn: 0, framesDecoded: 0, limits: [], sizes: [] };
  for (const pc of window.__pcs || []) {
    if (pc.connectionState === 'closed') continue;
    out.peerConnections++;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'outbound-rtp') {
        out.sentBytes += (s.bytesSent || 0) + (s.headerBytesSent || 0);
        if (s.kind === 'video') {
          out.videoOut++;
          out.framesEncoded += s.framesEncoded || 0;
          out.limits.push(s.qualityLimitationReason || 'none');
          if (s.frameWidth) out.sizes.push(s.frameWidth + 'x' + s.frameHeight);
        }
      } else if (s.type === 'inbound-rtp' && s.kind === 'video') {
        out.videoIn++;
        out.framesDecoded += s.framesDecoded || 0;
      }
    });
  }
  out.at = Date.now();
  return out;
})()`;

/** Remote tiles, and how many of their videos decoded a frame. */
const READ_TILES = `(() => {
  const tiles = [...document.querySelectorAll('[data-testid="remote-tile"]')];
  const playing = tiles.filter((t) => {
    const v = t.querySelector('video[data-testid="remote-video"]');
    return v && v.getVideoPlaybackQuality().totalVideoFrames > 0;
  });
  const call = document.querySelector('[data-testid="mesh-call"]');
  const said = [...document.querySelectorAll('[role="alert"],[role="status"]')].map((e) => e.textContent).join(' | ');
  const page = location.pathname + ': ' + document.body.innerText.replace(/\\s+/g, ' ').slice(0, 200);
  return { tiles: tiles.length, playing: playing.length, status: call ? call.getAttribute('data-status') : null, said, page };
})()`;

interface Tiles {
  tiles: number;
  playing: number;
  status: string | null;
  said: string;
  page: string;
}

// -- One meeting ------------------------------------------------------------------------------------

interface Run {
  mode: Mode;
  participants: number;
  joined: number;
  /** Pages that showed N−1 remote tiles with frames before the window, and when the last did. */
  pagesWithAllFrames: number;
  allFramesAfter_s: number | null;
  uploadMedian_kbps: number;
  uploadMax_kbps: number;
  /** Median upload / (N−1) in the mesh (one connection to each other participant). */
  perConnection_kbps: number | null;
  sentFps: number;
  receivedFps: number;
  frameSizes: string;
  /** Outbound video streams limited by CPU / bandwidth at the window's end, of all. */
  cpuLimited: string;
  cohortCpu_pct: number;
  janusCpu_pct: number | null;
  browsersCpu_pct: number;
  machineBusy_pct: number;
  loadAtWindowEnd: number[];
  windowS: number;
  /** Each page at the window's end: status, remote tiles / tiles with frames. */
  pagesAtEnd?: string;
  /** What the page of one more person said, at the mesh's maximum. */
  refused?: string;
  error?: string;
}

/** What to undo (browsers, servers, Janus), newest first, also on Ctrl+C. */
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp() {
  while (cleanups.length > 0) await (cleanups.pop() as () => Promise<void>)().catch(() => {});
}
const onSignal = () => {
  console.error('meeting-media: interrupted, cleaning up');
  void cleanUp().then(() => process.exit(130));
};

async function meeting(mode: Mode, n: number): Promise<Run> {
  const started = Date.now();
  const log = (what: string) =>
    console.log(`[${mode} ${n}] ${round((Date.now() - started) / 1000)} s: ${what}`);
  const before = cleanups.length;
  try {
    let janus: LocalJanus | undefined;
    let janusProcess: number | undefined;
    if (mode === 'sfu') {
      janus = await startJanus();
      const j = janus;
      cleanups.push(() => j.stop());
      janusProcess = janusPid();
    }
    const server = await startBuiltServer(janus?.env ?? {});
    cleanups.push(() => server.stop());
    const serverPid = server.child.pid as number;
    log('server up');

    const tag = `${mode}${n}-${Date.now().toString(36)}`;
    // At the mesh's maximum one more person tries to join after the window: refused, not faked.
    const extra = mode === 'mesh' && n === MESH_ROOM_MAX ? 1 : 0;
    const everyone = await signUpUsers(server, n + extra, tag);
    const users = everyone.slice(0, n);
    const [owner, ...others] = everyone as [BenchUser, ...BenchUser[]];
    const workspaceName = `meeting-${tag}`;
    await workspaceWithMembers(server.url, owner, others, workspaceName, 'editor', 'meeting bench');
    const channel = await call<{ _id: string }>(
      server.url,
      'POST',
      `/api/workspaces/${encodeURIComponent(workspaceName)}/channels`,
      owner.token,
      { name: 'general', description: 'Everyone', members: [] },
    );
    const meetingPath = `/videocall?${new URLSearchParams({ room: channel._id, workspace: workspaceName, join: '1' })}`;
    log(`${n} users in ${workspaceName}`);

    // Launched as a server, for its process id: the browsers' CPU is that process tree's.
    const browserServer = await chromium.launchServer(fakeMediaLaunchOptions);
    cleanups.push(() => browserServer.close());
    const browserPid = browserServer.process().pid;
    if (browserPid === undefined) throw new Error('no Chromium process');
    const browser = await chromium.connect(browserServer.wsEndpoint());
    cleanups.push(() => browser.close());

    // One after another, as people drift into a meeting; each joins at once (join=1).
    const pages: Page[] = [];
    /** Each page's last console errors, for a page that never shows everyone. */
    const pageErrors: string[][] = [];
    let joinError: string | undefined;
    const signIn = async (u: BenchUser) => {
      const context = await browser.newContext({ baseURL: server.url });
      const login = await context.request.post('/api/login', {
        data: { email: u.email, password: PASSWORD },
      });
      if (!login.ok()) throw new Error(`login ${u.email}: ${login.status()}`);
      const page = await context.newPage();
      await page.addInitScript(KEEP_PEER_CONNECTIONS);
      return { context, page };
    };
    for (const u of users) {
      const { context, page } = await signIn(u);
      page.on('crash', () => console.error(`[${mode} ${n}] a page crashed`));
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text().slice(0, 200));
      });
      page.on('pageerror', (e) => errors.push(String(e).slice(0, 200)));
      await page.goto(meetingPath, { timeout: JOIN_TIMEOUT_S * 1000 });
      try {
        await page
          .locator('[data-testid="mesh-call"][data-status="in-call"]')
          .waitFor({ timeout: JOIN_TIMEOUT_S * 1000 });
      } catch {
        const t = (await page.evaluate(READ_TILES).catch(() => null)) as Tiles | null;
        joinError = `participant ${pages.length + 1} did not join in ${JOIN_TIMEOUT_S} s (status ${t?.status}: ${t?.said})`;
        console.error(
          `[${mode} ${n}] ${joinError}\n  page: ${t?.page}\n  errors: ${errors.slice(-5).join('\n          ')}`,
        );
        await context.close();
        break;
      }
      pages.push(page);
      pageErrors.push(errors);
    }
    log(`${pages.length} joined${joinError ? `; ${joinError}` : ''}`);

    // Every page: N−1 remote tiles, each with a decoded frame.
    const want = n - 1;
    const until = Date.now() + FRAMES_TIMEOUT_S * 1000;
    let ready = 0;
    let allFramesAfter: number | null = null;
    const framesFrom = Date.now();
    for (;;) {
      const tiles = (await Promise.all(
        pages.map((p) => p.evaluate(READ_TILES).catch(() => null)),
      )) as Array<Tiles | null>;
      ready = tiles.filter((t) => t && t.tiles === want && t.playing === want).length;
      if (ready === n) {
        allFramesAfter = (Date.now() - framesFrom) / 1000;
        break;
      }
      if (Date.now() > until || pages.length < n) {
        log(
          `frames: ${ready}/${n} pages complete; tiles/playing per page: ${tiles.map((t) => (t ? `${t.tiles}/${t.playing}` : '?')).join(' ')}`,
        );
        tiles.forEach((t, i) => {
          if (t && t.tiles === want && t.playing === want) return;
          const errors = (pageErrors[i] ?? []).slice(-3).join(' / ');
          log(`  page ${i + 1}: ${t?.status} "${t?.said}"${errors ? `; errors: ${errors}` : ''}`);
        });
        break;
      }
      await sleep(1000);
    }
    if (allFramesAfter !== null) log(`every page shows ${want} remote videos with frames`);

    await sleep(SETTLE_S * 1000);

    // The window.
    const readAll = async () =>
      (await Promise.all(
        pages.map((p) => p.evaluate(READ_STATS).catch(() => null)),
      )) as Array<PageStats | null>;
    const cpu0 = {
      cohort: cpuSeconds(serverPid),
      janus: janusProcess === undefined ? 0 : cpuSeconds(janusProcess),
      browsers: treeCpu(browserPid),
      machine: machineTicks(),
      at: performance.now(),
    };
    const stats0 = await readAll();
    await sleep(WINDOW_S * 1000);
    const stats1 = await readAll();
    const cpu1 = {
      cohort: cpuSeconds(serverPid),
      janus: janusProcess === undefined ? 0 : cpuSeconds(janusProcess),
      browsers: treeCpu(browserPid),
      machine: machineTicks(),
      at: performance.now(),
    };
    const loadAtWindowEnd = load();
    const pagesAtEnd = (
      (await Promise.all(pages.map((p) => p.evaluate(READ_TILES).catch(() => null)))) as Array<Tiles | null>
    )
      .map((t) => (t ? `${t.status} ${t.tiles}/${t.playing}` : '?'))
      .join(', ');
    const seconds = (cpu1.at - cpu0.at) / 1000;

    let refused: string | undefined;
    const late = everyone[n];
    if (late && !joinError) {
      const { page } = await signIn(late);
      await page.goto(meetingPath, { timeout: JOIN_TIMEOUT_S * 1000 });
      const alert = page.locator('[role="alert"],[role="status"]').filter({ hasText: /full/i });
      refused = await alert
        .first()
        .textContent({ timeout: JOIN_TIMEOUT_S * 1000 })
        .then((text) => (text ?? '').trim())
        .catch(
          async () => `not refused? ${JSON.stringify(await page.evaluate(READ_TILES).catch(() => null))}`,
        );
      log(`participant ${n + 1}: ${refused}`);
    }

    const uploads: number[] = [];
    const sentFps: number[] = [];
    const receivedFps: number[] = [];
    for (let i = 0; i < pages.length; i++) {
      const a = stats0[i];
      const b = stats1[i];
      if (!a || !b || b.at <= a.at) continue;
      const s = (b.at - a.at) / 1000;
      uploads.push(((b.sentBytes - a.sentBytes) * 8) / 1000 / s);
      if (b.videoOut > 0) sentFps.push((b.framesEncoded - a.framesEncoded) / s / b.videoOut);
      if (b.videoIn > 0) receivedFps.push((b.framesDecoded - a.framesDecoded) / s / b.videoIn);
    }
    const end = stats1.filter((s): s is PageStats => s !== null);
    const limits = end.flatMap((s) => s.limits);
    const sizes = new Map<string, number>();
    for (const size of end.flatMap((s) => s.sizes)) sizes.set(size, (sizes.get(size) ?? 0) + 1);
    const pct = (cpuS: number) => round(((cpuS / seconds) * 100) / n, 2);
    const uploadMedian = median(uploads);
    const run: Run = {
      mode,
      participants: n,
      joined: pages.length,
      pagesWithAllFrames: ready,
      allFramesAfter_s: allFramesAfter === null ? null : round(allFramesAfter),
      uploadMedian_kbps: round(uploadMedian),
      uploadMax_kbps: round(Math.max(0, ...uploads)),
      perConnection_kbps: mode === 'mesh' && n > 1 ? round(uploadMedian / (n - 1)) : null,
      sentFps: round(median(sentFps)),
      receivedFps: round(median(receivedFps)),
      frameSizes: [...sizes].map(([size, count]) => `${size}×${count}`).join(' '),
      cpuLimited: `${limits.filter((l) => l === 'cpu').length}/${limits.filter((l) => l === 'bandwidth').length}/${limits.length}`,
      cohortCpu_pct: pct(cpu1.cohort - cpu0.cohort),
      janusCpu_pct: janusProcess === undefined ? null : pct(cpu1.janus - cpu0.janus),
      browsersCpu_pct: pct(treeCpuDelta(cpu0.browsers, cpu1.browsers)),
      machineBusy_pct: round(
        ((cpu1.machine.busy - cpu0.machine.busy) / (cpu1.machine.total - cpu0.machine.total)) * 100,
      ),
      loadAtWindowEnd,
      windowS: round(seconds),
      pagesAtEnd,
      ...(refused ? { refused } : {}),
      ...(joinError ? { error: joinError } : {}),
    };
    log(`measured: ${JSON.stringify(run)}`);
    return run;
  } finally {
    while (cleanups.length > before) await (cleanups.pop() as () => Promise<void>)().catch(() => {});
  }
}

function failed(mode: Mode, n: number, err: unknown): Run {
  console.error(`[${mode} ${n}] failed:`, err);
  return {
    mode,
    participants: n,
    joined: 0,
    pagesWithAllFrames: 0,
    allFramesAfter_s: null,
    uploadMedian_kbps: 0,
    uploadMax_kbps: 0,
    perConnection_kbps: null,
    sentFps: 0,
    receivedFps: 0,
    frameSizes: '',
    cpuLimited: '',
    cohortCpu_pct: 0,
    janusCpu_pct: null,
    browsersCpu_pct: 0,
    machineBusy_pct: 0,
    loadAtWindowEnd: load(),
    windowS: 0,
    error: String(err instanceof Error ? err.message : err).split('\n')[0],
  };
}

// -- The run ----------------------------------------------------------------------------------------

for (const built of [SERVER_BUNDLE, 'apps/web/dist/index.html']) {
  if (!existsSync(join(repoRoot, built))) {
    throw new Error(`meeting-media: ${built} is missing: run \`npm run build\` first`);
  }
}
const machine = {
  cpu: cpus()[0]?.model,
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
};
const loadStart = load();
const runStarted = Date.now();
const workDir = mkdtempSync(join(tmpdir(), 'cohort-bench-meeting-web-'));
cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));
const web = await snapshotWebBuild(workDir).catch(async (err) => {
  await cleanUp();
  throw err;
});
console.log(`meeting-media: the web build of ${web.builtAt.toISOString()} (copied to ${web.path})`);
console.log(
  `\nmeeting-media: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; load average ${loadStart.join(' ')}; ` +
    `mesh at ${meshSizes.join(', ')}, SFU at ${sfuSizes.join(', ')}; window ${WINDOW_S} s after ${SETTLE_S} s settling`,
);
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const runs: Run[] = [];
try {
  if (MODES.includes('mesh')) {
    for (const n of meshSizes) runs.push(await meeting('mesh', n).catch((err) => failed('mesh', n, err)));
  }
  if (MODES.includes('sfu')) {
    if (!hasJanus()) console.log('meeting-media: janus is not installed (Debian package janus): no SFU runs');
    else for (const n of sfuSizes) runs.push(await meeting('sfu', n).catch((err) => failed('sfu', n, err)));
  }
} finally {
  await cleanUp();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}
const loadEnd = load();
const tookS = round((Date.now() - runStarted) / 1000, 0);

const cpuCells = (r: Run) => ({
  'Cohort CPU %/person': r.cohortCpu_pct,
  ...(r.mode === 'sfu'
    ? {
        'Janus CPU %/person': r.janusCpu_pct ?? '',
        'server sum %/person': round(r.cohortCpu_pct + (r.janusCpu_pct ?? 0), 2),
      }
    : {}),
  'browsers CPU %/person': r.browsersCpu_pct,
  'machine busy %': r.machineBusy_pct,
  'load 1 min': r.loadAtWindowEnd[0] ?? '',
});
const row = (r: Run) => ({
  people: r.participants,
  'frames on all pages': r.error
    ? `ERROR ${r.error}`
    : `${r.pagesWithAllFrames}/${r.participants}${r.allFramesAfter_s === null ? ' (timed out)' : ` after ${r.allFramesAfter_s} s`}`,
  'upload median kbit/s': r.uploadMedian_kbps,
  'upload max kbit/s': r.uploadMax_kbps,
  ...(r.mode === 'mesh' ? { 'per connection kbit/s': r.perConnection_kbps ?? '' } : {}),
  'sent fps': r.sentFps,
  'received fps': r.receivedFps,
  'video limited cpu/bw/all': r.cpuLimited,
  ...cpuCells(r),
});

const mesh = runs.filter((r) => r.mode === 'mesh' && !r.error);
const sfu = runs.filter((r) => r.mode === 'sfu');
const meshAtMax = mesh.find((r) => r.participants === MESH_ROOM_MAX);
/** The mesh's upload per participant at `n`: measured up to its maximum, else computed from it. */
const meshUpload = (n: number) => {
  const measured = mesh.find((r) => r.participants === n);
  if (measured) return { kbps: measured.uploadMedian_kbps, how: 'measured' };
  if (n > MESH_ROOM_MAX && meshAtMax?.perConnection_kbps)
    return {
      kbps: round((n - 1) * meshAtMax.perConnection_kbps),
      how: `computed, the mesh refuses >${MESH_ROOM_MAX}: ${n - 1} × ${meshAtMax.perConnection_kbps} kbit/s per connection at ${MESH_ROOM_MAX}`,
    };
  return null;
};

const meshRows = [
  ...runs.filter((r) => r.mode === 'mesh').map(row),
  ...sfuSizes
    .filter((n) => n > MESH_ROOM_MAX)
    .flatMap((n) => {
      const m = meshUpload(n);
      return m
        ? [
            {
              people: n,
              'frames on all pages': m.how,
              'upload median kbit/s': m.kbps,
              'upload max kbit/s': '',
            },
          ]
        : [];
    }),
];
console.log(
  `\nMesh (${MESH_ROOM_MAX} at most; larger sizes computed as (N−1) × the per-connection upload at ${MESH_ROOM_MAX})`,
);
console.table(meshRows);
for (const r of mesh)
  if (r.refused) console.log(`participant ${r.participants + 1} of the mesh: "${r.refused}"`);
console.log('\nSFU (Janus VideoRoom)');
console.table(sfu.map(row));

const ratios = sfu.map((s) => {
  const m = meshUpload(s.participants);
  const meshCpu = mesh.find((r) => r.participants === s.participants);
  const sfuServer = round(s.cohortCpu_pct + (s.janusCpu_pct ?? 0), 2);
  return {
    people: s.participants,
    'mesh upload kbit/s': m ? `${m.kbps} (${m.how.split(',')[0]})` : '',
    'SFU upload kbit/s':
      s.pagesWithAllFrames < s.participants
        ? `${s.uploadMedian_kbps} (only ${s.pagesWithAllFrames}/${s.participants} pages saw everyone)`
        : s.uploadMedian_kbps,
    'SFU/mesh upload': m && m.kbps > 0 ? round(s.uploadMedian_kbps / m.kbps, 2) : '',
    'mesh server CPU %/person': meshCpu ? meshCpu.cohortCpu_pct : `n/a (mesh refuses >${MESH_ROOM_MAX})`,
    'SFU server CPU %/person': sfuServer,
    'SFU/mesh server CPU':
      meshCpu && meshCpu.cohortCpu_pct > 0 ? round(sfuServer / meshCpu.cohortCpu_pct, 1) : '',
    'mesh browsers CPU %/person': meshCpu?.browsersCpu_pct ?? '',
    'SFU browsers CPU %/person': s.browsersCpu_pct,
  };
});
console.log('\nSFU against mesh (same run)');
console.table(ratios);
console.log(
  `machine: ${machine.cpu}, ${machine.cores} cores; load average at start ${loadStart.join(' ')}, at end ${loadEnd.join(' ')}; took ${tookS} s`,
);

const dir = join(repoRoot, 'bench', 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'meeting-media.json'),
  JSON.stringify(
    {
      name: 'meeting-media',
      at: new Date().toISOString(),
      node: process.version,
      machine: { ...machine, loadStart, loadEnd },
      settings: { sizes: SIZES, meshSizes, sfuSizes, windowS: WINDOW_S, settleS: SETTLE_S },
      tookS,
      runs,
      ratios,
    },
    null,
    2,
  ),
);
