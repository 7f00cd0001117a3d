import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DM_NAMESPACE, type SendDirectMessageAck } from '@cohort/shared/chat';
import type { StoredFile } from '@cohort/shared/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { type FakeS3, startFakeS3 } from '../../../test/fakes/s3.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, openSocket, request } from '../chat/chat.test-helpers.ts';
import { client, createWorkspace } from '../workspaces/test-fixtures.ts';
import { deleteFilesOfMessages } from './files.access.ts';
import { PDF, upload } from './files.test-helpers.ts';

/** Files in an S3-compatible bucket (a fake one), shared in a direct conversation. */
let s3: FakeS3;
let t: TestApp;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  s3 = await startFakeS3({ accessKeyId: 'AKIDTEST' });
  dataDir = await mkdtemp(join(tmpdir(), 'cohort-s3-'));
  t = await createTestApp({
    listen: true,
    env: {
      DATA_DIR: dataDir,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.url,
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'AKIDTEST',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    },
  });
  [alice, bob, carol] = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app)]);
  await createWorkspace(t, alice, { members: [{ email: bob.email, role: 'viewer' }] });
});

afterAll(async () => {
  await t.close();
  await s3.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('files in S3, shared in a direct conversation', () => {
  it('stores in the bucket, serves the two people only, and deletes from the bucket', async () => {
    const res = await upload(t, alice, { dmWith: bob.email }, [
      { name: 'file', data: PDF, filename: 'plan.pdf' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json() as StoredFile;
    expect(file.type).toBe('application/pdf');
    expect(s3.objects.get(file._id)?.body.equals(PDF)).toBe(true);
    expect(s3.objects.get(file._id)?.type).toBe('application/pdf');

    const socket = await openSocket(baseUrl(t.app.server), DM_NAMESPACE, alice.token);
    try {
      const ack = await request<SendDirectMessageAck>(socket, 'sendMessage', {
        receiverEmail: bob.email,
        clientId: randomUUID(),
        content: '',
        attachments: [file._id],
      });
      expect(ack.ok).toBe(true);
      if (!ack.ok) return;
      expect(ack.message.attachments.map((a) => a._id)).toEqual([file._id]);

      const api = client(t);
      const got = await api.get(file.url, bob);
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(PDF)).toBe(true);
      expect(got.headers['content-disposition']).toMatch(/^inline;/);
      expect((await api.get(file.url, carol)).statusCode).toBe(404);
      const history = await api.get(
        `/api/messages/${encodeURIComponent(bob.email)}?with=${encodeURIComponent(alice.email)}`,
        bob,
      );
      expect(history.json()[0].attachments[0].name).toBe('plan.pdf');

      expect(await deleteFilesOfMessages(t.ctx, 'direct', [ack.message._id])).toBe(1);
      expect(s3.objects.has(file._id)).toBe(false);
      expect((await api.get(file.url, bob)).statusCode).toBe(404);
    } finally {
      socket.close();
    }
  });

  it('refuses to share with someone the uploader may not write to', async () => {
    const res = await upload(t, alice, { dmWith: carol.email }, [
      { name: 'file', data: PDF, filename: 'plan.pdf' },
    ]);
    expect(res.statusCode).toBe(404);
  });
});
