import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHAT_EVENTS,
  CHAT_MESSAGES,
  CHAT_NAMESPACE,
  type ChannelMessage,
  type SendChannelMessageAck,
} from '@cohort/shared/chat';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/factories.ts';
import {
  call,
  createTeam,
  freePort,
  type HttpUser,
  type ServerProcess,
  signUp,
  startReadyServer,
  stopServer,
} from '../../../test/server-process.ts';
import { openSocket, request, sleep } from './chat.test-helpers.ts';

/**
 * A full disk under DATA_DIR (PGlite and DATA_DIR/files on a size-limited tmpfs, filled with a
 * ballast file): sends are refused with a clear reason and never acknowledged, uploads answer 507,
 * the server stays up, and once space is freed the same clientId goes through and nothing acked
 * was lost. Mounting a tmpfs needs root (CAP_SYS_ADMIN), as on this project's CI machine.
 */
const mountPoint = join(tmpdir(), `cohort-disk-full-${randomUUID().slice(0, 8)}`);
function tryMount(): string | null {
  if (process.env.COHORT_TEST_DB === 'postgres') return 'it runs in the server (PGlite) project';
  if (process.platform !== 'linux') return 'tmpfs mounts need Linux';
  try {
    mkdirSync(mountPoint, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=80m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    return null;
  } catch (err) {
    rmSync(mountPoint, { recursive: true, force: true });
    return `cannot mount a size-limited tmpfs (needs root): ${(err as Error).message.split('\n')[0]}`;
  }
}
const skipReason = tryMount();
if (skipReason) console.log(`chat.disk-full.test.ts skipped: ${skipReason}`);

const ballast = (n: number) => join(mountPoint, `ballast-${n}`);

/** Writes ballast until the filesystem refuses even 512 bytes; answers how many files it wrote. */
function fillDisk(): number {
  let files = 0;
  for (const chunk of [1024 * 1024, 64 * 1024, 4096, 512]) {
    const fd = openSync(ballast(files++), 'w');
    const buf = Buffer.alloc(chunk, 1);
    try {
      for (;;) writeSync(fd, buf);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
  }
  return files;
}

describe.skipIf(skipReason !== null)('chat on a full disk (PGlite DATA_DIR on a small tmpfs)', () => {
  let server: ServerProcess;
  let users: HttpUser[];
  let team: { workspaceName: string; channelId: string };
  let socket: Socket;

  beforeAll(async () => {
    server = await startReadyServer(await freePort(), { DATA_DIR: join(mountPoint, 'data') });
    users = await Promise.all([
      signUp(server.url, uniqueEmail('disk0')),
      signUp(server.url, uniqueEmail('disk1')),
    ]);
    const [owner, member] = users as [HttpUser, HttpUser];
    team = await createTeam(server.url, owner, [member], `disk-${Date.now()}`);
    socket = await openSocket(server.url, CHAT_NAMESPACE, owner.token);
    expect(await request(socket, CHAT_EVENTS.joinChannel, team)).toEqual({ ok: true });
  }, 180_000); // server cold starts on a loaded CI machine

  afterAll(async () => {
    socket?.close();
    if (server) await stopServer(server, 'SIGKILL');
    try {
      execFileSync('umount', [mountPoint], { stdio: 'pipe' });
    } catch {}
    rmSync(mountPoint, { recursive: true, force: true });
  });

  const send = (clientId: string, content: string) =>
    request<SendChannelMessageAck>(socket, CHAT_EVENTS.sendMessage, {
      ...team,
      clientId,
      message: { content },
    });

  const history = async () => {
    const res = await call<ChannelMessage[]>(
      server.url,
      'GET',
      `/api/workspaces/${encodeURIComponent(team.workspaceName)}/channels/${team.channelId}/messages?limit=200`,
      { token: users[0]?.token },
    );
    expect(res.status).toBe(200);
    return res.body;
  };

  const uploadFile = () => {
    const form = new FormData();
    form.append('workspaceName', team.workspaceName);
    form.append('channelId', team.channelId);
    form.append('file', new Blob([new Uint8Array(256 * 1024).fill(7)]), 'notes.bin');
    return fetch(`${server.url}/api/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${users[0]?.token}` },
      body: form,
    });
  };

  it('refuses sends and uploads clearly while full, stays up, and loses nothing acked once space is freed', async () => {
    const acked: ChannelMessage[] = [];
    for (let i = 0; i < 5; i++) {
      const ack = await send(randomUUID(), `before ${i}`);
      if (!ack.ok) throw new Error(ack.message);
      acked.push(ack.message);
    }

    const files = fillDisk();
    // Pages with room left may still take a row or two: keep writing until the disk says no. Every
    // answer is either an acknowledgement (stored) or the clear refusal, never a silent loss.
    let refused: { clientId: string; content: string } | null = null;
    for (let i = 0; i < 400 && !refused; i++) {
      // Random text: it neither compresses nor fits in room left on existing pages for long.
      const noise = randomBytes(2400).toString('base64');
      const attempt = { clientId: randomUUID(), content: `while full ${i} ${noise}` };
      let ack = await send(attempt.clientId, attempt.content);
      while (!ack.ok && ack.message === CHAT_MESSAGES.slowDown) {
        await sleep(300); // the flood guard, not the disk
        ack = await send(attempt.clientId, attempt.content);
      }
      if (ack.ok) acked.push(ack.message);
      else {
        expect(ack.message).toBe(CHAT_MESSAGES.storageFull);
        refused = attempt;
      }
    }
    expect(refused).not.toBeNull();

    const up = await uploadFile();
    expect(up.status).toBe(507);
    expect(await up.json()).toEqual({
      message: 'The server is out of storage space. Nothing was saved; try again later.',
    });
    // Still up and reading.
    expect(server.child.exitCode).toBeNull();
    expect((await call(server.url, 'GET', '/api/me', { token: users[0]?.token })).status).toBe(200);

    for (let n = 0; n < files; n++) rmSync(ballast(n), { force: true });
    // The user's Retry: the same clientId, now stored once.
    const retried = await send(refused?.clientId ?? '', refused?.content ?? '');
    if (!retried.ok) throw new Error(retried.message);
    acked.push(retried.message);
    const after = await send(randomUUID(), 'after');
    if (!after.ok) throw new Error(after.message);
    acked.push(after.message);
    expect((await uploadFile()).status).toBe(201);

    const stored = await history();
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.map((m) => m._id)).toEqual(acked.map((m) => m._id));
    expect(new Set(stored.map((m) => m.clientId)).size).toBe(stored.length);
  }, 90_000);

  it('keeps every acknowledged message through a restart after the disk was full', async () => {
    const before = await history();
    await stopServer(server, 'SIGTERM');
    server = await startReadyServer(server.port, { DATA_DIR: join(mountPoint, 'data') });
    expect(await history()).toEqual(before);
  }, 60_000);
});
