import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { freePort } from '../../../scripts/local-services.ts';

export { freePort };

/**
 * The real server process (`node --import tsx apps/server/src/main.ts`) for tests that kill, restart
 * or multiply it, and plain-HTTP helpers to drive it as a client would.
 */

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * The DATA_DIR of every server this process started: their mail (no SMTP_URL) is written under
 * DATA_DIR/outbox, where `signUp` reads the verification link. Servers started without a DATA_DIR
 * (PostgreSQL ones) get a temporary one, so nothing lands in the checkout's ./data.
 */
const dataDirs = new Set<string>();
const temporaryDirs: string[] = [];
process.on('exit', () => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

/** Lets `signUp` read the mail of a server this process did not spawn (an in-process test app). */
export function watchOutboxOf(dataDir: string) {
  dataDirs.add(dataDir);
}

export function startServer(port: number, env: Record<string, string>): ServerProcess {
  let dataDir = env.DATA_DIR;
  if (!dataDir) {
    dataDir = mkdtempSync(join(tmpdir(), 'cohort-server-'));
    temporaryDirs.push(dataDir);
  }
  dataDirs.add(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

export async function waitReady(server: ServerProcess, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`server exited early:\n${server.output()}`);
    }
    try {
      if ((await fetch(`${server.url}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not become ready:\n${server.output()}`);
}

export async function startReadyServer(port: number, env: Record<string, string>) {
  const server = startServer(port, env);
  await waitReady(server);
  return server;
}

/** Stops a server (SIGTERM unless told otherwise) and waits for its exit. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/**
 * A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server when the `server-postgres`
 * project runs (COHORT_TEST_DB=postgres), else null (the caller uses a PGlite DATA_DIR).
 */
export async function freshPostgresDatabase(
  opts: { force?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> } | null> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl || (!opts.force && process.env.COHORT_TEST_DB !== 'postgres')) return null;
  const name = `cohort_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface HttpUser {
  id: string;
  email: string;
  token: string;
}

/** JSON over HTTP with a Bearer token, as an API client would call the server. */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * The token of the verification mail to `email`, read from the outbox of the servers this process
 * started (with a shared database, any node may have sent it), polling until it is written.
 */
async function verificationToken(email: string, timeoutMs = 30_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  const seen = new Set<string>();
  for (;;) {
    for (const dir of dataDirs) {
      const outbox = join(dir, 'outbox');
      const names = await readdir(outbox).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith('.eml'))) {
        const file = join(outbox, name);
        if (seen.has(file)) continue;
        seen.add(file);
        const mail = await simpleParser(await readFile(file));
        const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) =>
          a.value.map((v) => v.address?.toLowerCase()),
        );
        if (!to.includes(email.toLowerCase())) continue;
        const link = (mail.text ?? '').match(/https?:\/\/[^\s<>"']+\/verify-email\?[^\s<>"']+/)?.[0];
        const token = link ? new URL(link).searchParams.get('token') : null;
        if (token) return token;
      }
    }
    if (Date.now() > until) throw new Error(`no verification mail to ${email} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Signs up, verifies the address with the link the server mailed (so the account may accept
 * invitations) and logs in, through the public API.
 */
export async function signUp(baseUrl: string, email: string, firstName = 'Test'): Promise<HttpUser> {
  const password = 'correct horse battery';
  const signup = await call(baseUrl, 'POST', '/api/signup', {
    body: { firstName, lastName: 'User', email, password },
  });
  if (signup.status !== 201)
    throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const verified = await call(baseUrl, 'POST', '/api/account/verify-email', {
    body: { token: await verificationToken(email) },
  });
  if (verified.status !== 200)
    throw new Error(`verification failed: ${verified.status} ${JSON.stringify(verified.body)}`);
  const login = await call<{ token: string }>(baseUrl, 'POST', '/api/login', { body: { email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const me = await call<{ user: { _id: string } }>(baseUrl, 'GET', '/api/me', { token: login.body.token });
  return { id: me.body.user._id, email, token: login.body.token };
}

/**
 * A workspace owned by `owner` with the others as members (invited, and each accepting), and one
 * open channel in it.
 */
export async function createTeam(baseUrl: string, owner: HttpUser, members: HttpUser[], name: string) {
  const ws = await call<{ _id: string; name: string }>(baseUrl, 'POST', '/api/workspaces', {
    token: owner.token,
    body: {
      name,
      description: 'test team',
      members: members.map((m) => ({ email: m.email, role: 'viewer' })),
    },
  });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${JSON.stringify(ws.body)}`);
  for (const member of members) await acceptInvitation(baseUrl, member, ws.body._id);
  const channel = await call<{ _id: string }>(
    baseUrl,
    'POST',
    `/api/workspaces/${encodeURIComponent(name)}/channels`,
    { token: owner.token, body: { name: 'general', description: 'all of us' } },
  );
  if (channel.status !== 201) throw new Error(`channel: ${channel.status} ${JSON.stringify(channel.body)}`);
  return { workspaceName: ws.body.name, channelId: channel.body._id };
}

/** The member accepts their pending invitation to the workspace, as from the invitations page. */
export async function acceptInvitation(baseUrl: string, member: HttpUser, workspaceId: string) {
  const mine = await call<Array<{ _id: string; workspace: { _id: string } }>>(
    baseUrl,
    'GET',
    '/api/invitations',
    { token: member.token },
  );
  const invitation = mine.status === 200 ? mine.body.find((i) => i.workspace._id === workspaceId) : undefined;
  if (!invitation)
    throw new Error(`no invitation for ${member.email}: ${mine.status} ${JSON.stringify(mine.body)}`);
  const accepted = await call(baseUrl, 'POST', `/api/invitations/${invitation._id}/accept`, {
    token: member.token,
    body: {},
  });
  if (accepted.status !== 200)
    throw new Error(`accepting failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
}
