import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredFile } from '@cohort/shared/files';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { fileDeletions, files, users } from '../../db/schema.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { sweepFiles, UNATTACHED_TTL_MS } from './files.sweeper.ts';
import { PDF, upload } from './files.test-helpers.ts';

/** Storage limits: a per-workspace quota reserved before bytes are stored, and nothing left behind. */

const KIB = 1024;
let t: TestApp;
let dataDir: string;
let owner: TestUser;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cohort-quota-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir, STORAGE_QUOTA_MB: '1' } });
  owner = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const pdfOf = (kib: number) => Buffer.concat([PDF, Buffer.alloc(kib * KIB - PDF.length, 0x20)]);
const storedPath = (key: string) => join(dataDir, 'files', key.slice(0, 2), key);

async function channelOf(as: TestUser) {
  const ws = await createWorkspace(t, as);
  const channel = await createChannel(t, as, ws.name, {});
  return { ws, channel, fields: { workspaceName: ws.name, channelId: channel._id } };
}

const put = (as: TestUser, fields: Record<string, string>, kib: number) =>
  upload(t, as, fields, [
    { name: 'file', data: pdfOf(kib), filename: 'report.pdf', type: 'application/pdf' },
  ]);

async function attach(as: TestUser, wsName: string, channelId: string, fileId: string) {
  const res = await client(t).post(wsUrl(wsName, `/channels/${channelId}/messages`), as, {
    clientId: randomUUID(),
    content: 'see attached',
    attachments: [fileId],
  });
  expect(res.statusCode).toBe(201);
}

describe('the storage quota (STORAGE_QUOTA_MB=1 here)', () => {
  it('refuses the upload that would pass it with 413 and stores nothing', async () => {
    const { ws, fields } = await channelOf(owner);
    expect((await put(owner, fields, 400)).statusCode).toBe(201);
    expect((await put(owner, fields, 400)).statusCode).toBe(201);
    const before = await t.ctx.db.select({ n: count() }).from(files).where(eq(files.workspaceId, ws._id));
    const refused = await put(owner, fields, 400);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toMatch(/This workspace has used its 1 MiB of file storage/);
    const after = await t.ctx.db.select({ n: count() }).from(files).where(eq(files.workspaceId, ws._id));
    expect(after).toEqual(before);

    const usage = await client(t).get(wsUrl(ws.name, '/storage'), owner);
    expect(usage.json()).toMatchObject({ bytes: 800 * KIB, files: 2, quotaBytes: 1024 * KIB });
  });

  it('counts parallel uploads one after another: exactly what fits is stored', async () => {
    const { ws, fields } = await channelOf(owner);
    const results = await Promise.all(Array.from({ length: 6 }, () => put(owner, fields, 300)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 413, 413, 413]);
    const usage = await client(t).get(wsUrl(ws.name, '/storage'), owner);
    expect(usage.json().bytes).toBe(900 * KIB);
  });

  it('is per workspace: another workspace of the same person has its own', async () => {
    const { fields } = await channelOf(owner);
    expect((await put(owner, fields, 900)).statusCode).toBe(201);
    const second = await channelOf(owner);
    expect((await put(owner, second.fields, 900)).statusCode).toBe(201);
  });
});

describe('nothing stored is left behind', () => {
  it('sweeps uploads no message carried after 24 hours, keeping attached and recent ones', async () => {
    const { ws, channel, fields } = await channelOf(owner);
    const abandoned = (await put(owner, fields, 10)).json() as StoredFile;
    const attached = (await put(owner, fields, 10)).json() as StoredFile;
    await attach(owner, ws.name, channel._id, attached._id);
    expect(existsSync(storedPath(abandoned._id))).toBe(true);

    t.advance(UNATTACHED_TTL_MS - 60_000);
    const fresh = (await put(owner, fields, 10)).json() as StoredFile;
    t.advance(2 * 60_000);
    await sweepFiles(t.ctx);

    expect(existsSync(storedPath(abandoned._id))).toBe(false);
    expect(await t.ctx.db.select().from(files).where(eq(files.id, abandoned._id))).toEqual([]);
    expect(existsSync(storedPath(attached._id))).toBe(true);
    expect(existsSync(storedPath(fresh._id))).toBe(true);
  });

  it('removes the bytes of a deleted channel, workspace or account, and empties the queue', async () => {
    const member = await createUser(t.app);
    const a = await channelOf(member);
    const inChannel = (await put(member, a.fields, 10)).json() as StoredFile;
    await attach(member, a.ws.name, a.channel._id, inChannel._id);
    const b = await channelOf(member);
    const inWorkspace = (await put(member, b.fields, 10)).json() as StoredFile;
    await attach(member, b.ws.name, b.channel._id, inWorkspace._id);
    const c = await channelOf(member);
    const ofAccount = (await put(member, c.fields, 10)).json() as StoredFile;

    expect((await client(t).del(wsUrl(a.ws.name, `/channels/${a.channel._id}`), member)).statusCode).toBe(
      204,
    );
    expect((await client(t).del(wsUrl(b.ws.name), member)).statusCode).toBe(204);
    // No route deletes an account yet; an operator's delete cascades the same way.
    await t.ctx.db.delete(users).where(eq(users.id, member.id));
    await sweepFiles(t.ctx);

    for (const f of [inChannel, inWorkspace, ofAccount]) expect(existsSync(storedPath(f._id))).toBe(false);
    expect(await t.ctx.db.select().from(fileDeletions)).toEqual([]);
  });
});
