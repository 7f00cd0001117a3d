// The main thread's CPU time while a channel page loads, and the blocking time it would cause on a
// phone: Lighthouse's mobile TBT on this shared machine swings with the other processes (a task's
// wall time grows when the core is busy), but a task's *thread* time (the trace's `tdur`) barely
// moves. So: load the channel page in Debian's Chromium with a Chromium trace, take every top-level
// task of the page's main thread, and report Σ CPU, the tasks above 12.5 ms CPU (50 ms at
// Lighthouse's 4× mobile slowdown) and "TBT at 4×" = Σ max(0, 4·cpu − 50 ms) after the first paint.
//
// A/B in one run: WEB_DIST_B=<another build of apps/web> serves that build from a second server
// (same seed), and the runs alternate A, B, A, B… so both see the same machine.
//
//   npm run build && node --import tsx bench/page-cpu.ts
//   cp -r apps/web/dist /tmp/dist-before; <change>; npm run build
//   WEB_DIST_B=/tmp/dist-before RUNS=8 node --import tsx bench/page-cpu.ts
//   DEBUG_TASKS=1 (what each task above 8 ms ran), DEBUG_PROFILE=1 (a CPU profile's self time by script
//   and function) say where the time goes. PAGE=task measures the task board instead.
import { randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';
import { type BenchServer, call, percentile, report, signUpUsers, sleep, startServer } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const MESSAGES = Number(process.env.MESSAGES ?? 12);
/** PAGE=task: the task board (three seeded tasks) instead of the channel. */
const PAGE = process.env.PAGE === 'task' ? 'task' : 'channel';
/** How long after the load event the trace keeps recording (the first reads land in this window). */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3_000);

interface Target {
  label: string;
  server: BenchServer;
  token: string;
  path: string;
}

/** The same seed as bench/lighthouse.ts: a verified user, a workspace, #general with messages. */
async function seeded(label: string, webDist?: string): Promise<Target> {
  const server = await startServer({
    prefix: 'cohort-bench-page-',
    env: webDist ? { WEB_DIST: webDist } : {},
  });
  const [user] = await signUpUsers(server, 1, `page-${label}-${Date.now()}`);
  if (!user) throw new Error('no user');
  const workspace = 'Lighthouse';
  await call(server.url, 'POST', '/api/workspaces', user.token, {
    name: workspace,
    description: 'Audited',
    members: [],
  });
  const channel = await call<{ _id: string }>(
    server.url,
    'POST',
    `/api/workspaces/${workspace}/channels`,
    user.token,
    { name: 'general', description: 'Everything' },
  );
  for (let i = 1; i <= MESSAGES; i++) {
    await call(
      server.url,
      'POST',
      `/api/workspaces/${workspace}/channels/${channel._id}/messages`,
      user.token,
      {
        clientId: randomUUID(),
        content: `Message ${i}: the **release** goes out on Friday; see the checklist in the task board.`,
      },
    );
  }
  if (PAGE === 'task') {
    await call(server.url, 'POST', '/api/tasklists', user.token, { title: 'Backlog' });
    for (const title of ['Write the release notes', 'Fix the login redirect', 'Review the sidebar']) {
      await call(server.url, 'POST', '/api/tasks', user.token, {
        title,
        description: 'Seeded',
        Tasklist: 'Backlog',
      });
    }
    return { label, server, token: user.token, path: '/task' };
  }
  return { label, server, token: user.token, path: `/workspace/${workspace}/channel/${channel._id}` };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** One cold load of the page (fresh context, so no cache): the main thread's tasks from the trace. */
async function measure(browser: import('playwright-core').Browser, target: Target) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  await context.addCookies([{ name: 'cohort_session', value: target.token, url: target.server.url }]);
  const page = await context.newPage();
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'toplevel'],
  });
  const cdp = process.env.DEBUG_PROFILE ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${target.server.url}${target.path}`, { waitUntil: 'load' });
  if (PAGE === 'task') await page.getByText('Welcome to your Taskboard').waitFor();
  else
    await page.getByRole('log', { name: 'Messages in general' }).getByText(`Message ${MESSAGES}:`).waitFor();
  await sleep(SETTLE_MS);
  const profile = cdp ? (await cdp.send('Profiler.stop')).profile : undefined;
  if (profile) printProfile(profile);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  await context.close();

  const events = trace.traceEvents;
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const tasksOf = (pid: number, tid: number) =>
    events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.name === 'RunTask');
  // The page's renderer: the main thread that worked the most.
  const main = mains
    .map((m) => ({ m, tasks: tasksOf(m.pid, m.tid) }))
    .sort(
      (a, b) =>
        b.tasks.reduce((s, t) => s + (t.tdur ?? 0), 0) - a.tasks.reduce((s, t) => s + (t.tdur ?? 0), 0),
    )[0];
  if (!main) throw new Error('no renderer main thread in the trace');
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === main.m.pid)?.ts ?? 0;
  const ms = (us: number | undefined) => (us ?? 0) / 1000;
  const cpu = main.tasks.reduce((s, t) => s + ms(t.tdur), 0);
  const after = main.tasks.filter((t) => t.ts >= fcp);
  if (process.env.DEBUG_TASKS) {
    // What each long task ran: its direct children on the same thread (timer, fetch, socket, script…).
    for (const t of after.filter((x) => ms(x.tdur) > 8)) {
      const inside = events.filter(
        (e) =>
          e.pid === main.m.pid &&
          e.tid === main.m.tid &&
          e.ph === 'X' &&
          e.ts >= t.ts &&
          e.ts < t.ts + (t.dur ?? 0) &&
          e !== t,
      );
      const kinds = inside
        .filter((e) => ms(e.dur) > 2)
        .slice(0, 6)
        .map(
          (e) =>
            `${e.name}${(e.args as { data?: { url?: string; functionName?: string } })?.data?.url ? `(${(e.args as { data: { url: string } }).data.url.split('/').pop()})` : ''}:${ms(e.dur).toFixed(1)}`,
        );
      console.log(
        `${target.label} +${((t.ts - fcp) / 1000).toFixed(0)}ms cpu ${ms(t.tdur).toFixed(1)} ${kinds.join(' ')}`,
      );
      if (profile && ms(t.tdur) > 12.5) console.log(taskProfile(profile, t.ts, t.ts + (t.dur ?? 0)));
    }
  }
  return {
    cpu,
    long: after.filter((t) => ms(t.tdur) > 12.5).length,
    tbt4x: after.reduce((s, t) => s + Math.max(0, 4 * ms(t.tdur) - 50), 0),
    wallTbt: after.reduce((s, t) => s + Math.max(0, ms(t.dur) - 50), 0),
  };
}

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** DEBUG_PROFILE=1: where the page's JavaScript spent its time, by script and by function (self time). */
function printProfile(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const dt = (profile.timeDeltas?.[i] ?? 0) / 1000;
    if (!frame) return;
    const url = frame.url.split('/').pop() || frame.functionName;
    byUrl.set(url, (byUrl.get(url) ?? 0) + dt);
    const fn = `${url} ${frame.functionName || '(anon)'}:${frame.lineNumber}:${frame.columnNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(1)} ms  ${k}`);
  console.log(['by script:', ...top(byUrl, 12), 'by function:', ...top(byFn, 25)].join('\n'));
}

/**
 * DEBUG_TASKS with DEBUG_PROFILE: inside one task, the components (capitalised functions, readable in a
 * build made with `--minify false`) and functions that held the most samples, inclusive of callees.
 */
function taskProfile(
  profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number },
  from: number,
  to: number,
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  let at = profile.startTime;
  (profile.samples ?? []).forEach((id, i) => {
    at += profile.timeDeltas?.[i] ?? 0;
    if (at < from || at > to) return;
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n)?.callFrame;
      if (!f?.functionName) continue;
      const key = `${f.functionName}@${f.url.split('/').pop()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + 0.1);
    }
  });
  const rank = (keep: (k: string) => boolean) =>
    [...inclusive]
      .filter(([k]) => keep(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ');
  return `    components: ${rank((k) => /^[A-Z]/.test(k))}\n    all: ${rank(() => true)}`;
}

const targets = [await seeded('A')];
if (process.env.WEB_DIST_B) targets.push(await seeded('B', process.env.WEB_DIST_B));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const results = new Map(targets.map((t) => [t.label, [] as Awaited<ReturnType<typeof measure>>[]]));
  for (let run = 0; run < RUNS; run++) {
    for (const target of run % 2 ? [...targets].reverse() : targets) {
      results.get(target.label)?.push(await measure(browser, target));
    }
  }
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const rows = targets.map((t) => {
    const r = results.get(t.label) ?? [];
    return {
      build: t.label === 'A' ? 'A (apps/web/dist)' : `B (${process.env.WEB_DIST_B})`,
      runs: r.length,
      'main-thread CPU ms (median)': Math.round(median(r.map((x) => x.cpu))),
      'tasks > 12.5 ms CPU (median)': median(r.map((x) => x.long)),
      'TBT at 4× ms (median)': Math.round(median(r.map((x) => x.tbt4x))),
      'TBT at 4× ms (all)': r.map((x) => Math.round(x.tbt4x)).join(' '),
      'wall TBT ms (median)': Math.round(median(r.map((x) => x.wallTbt))),
    };
  });
  report('page-cpu', rows);
} finally {
  await browser.close();
  for (const t of targets) await t.server.stop();
}
