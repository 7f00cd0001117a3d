import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAT_MESSAGES, type ChannelMessage } from '@cohort/shared/chat';
import { FILE_MAX_BYTES, FILE_MESSAGES, type StoredFile } from '@cohort/shared/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { addMember, client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { deleteFilesOfMessages } from './files.access.ts';
import { JPEG, PDF, PNG, type UploadPart, upload } from './files.test-helpers.ts';

let t: TestApp;
let dataDir: string;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
let open: { _id: string };
let secret: { _id: string };
let other: { _id: string };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cohort-files-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  api = client(t);
  [admin, editor, viewer, outsider] = await Promise.all([
    createUser(t.app),
    createUser(t.app),
    createUser(t.app),
    createUser(t.app),
  ]);
  ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
  open = await createChannel(t, admin, ws.name, {});
  other = await createChannel(t, admin, ws.name, {});
  secret = await createChannel(t, admin, ws.name, { private: true });
});

afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const inOpen = () => ({ workspaceName: ws.name, channelId: open._id });
const png = (filename = 'picture.png') => [{ name: 'file', data: PNG, filename, type: 'image/png' }];

async function uploaded(
  as: TestUser,
  fields: Record<string, string> = inOpen(),
  parts: UploadPart[] = png(),
): Promise<StoredFile> {
  const res = await upload(t, as, fields, parts);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function post(
  as: TestUser,
  channelId: string,
  attachments: string[],
  content = '',
  clientId = randomUUID(),
) {
  return api.post(wsUrl(ws.name, `/channels/${channelId}/messages`), as, { clientId, content, attachments });
}

describe('POST /api/files', () => {
  it('stores a file for a channel the caller can write to, typed from its content', async () => {
    const file = await uploaded(editor);
    expect(file).toMatchObject({
      name: 'picture.png',
      size: PNG.length,
      type: 'image/png',
      width: 1,
      height: 1,
    });
    expect(file.url).toBe(`/api/files/${file._id}`);
    expect(file.thumbnailUrl).toBeNull();
  });

  it('lets viewers upload, as they may chat (docs/permissions.md)', async () => {
    const res = await upload(t, viewer, inOpen(), png());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'picture.png', type: 'image/png', size: PNG.length });
  });

  it('answers 404 for a workspace the caller is not in, a private channel they are not listed in, an unknown channel', async () => {
    expect((await upload(t, outsider, inOpen(), png())).statusCode).toBe(404);
    expect(
      (await upload(t, editor, { workspaceName: ws.name, channelId: secret._id }, png())).statusCode,
    ).toBe(404);
    expect(
      (await upload(t, editor, { workspaceName: ws.name, channelId: randomUUID() }, png())).statusCode,
    ).toBe(404);
    expect((await upload(t, editor, { dmWith: outsider.email }, png())).statusCode).toBe(404);
    expect((await upload(t, editor, { dmWith: 'nobody@example.com' }, png())).statusCode).toBe(404);
  });

  it('needs a session, a target before the file, and a file', async () => {
    expect((await upload(t, undefined, inOpen(), png())).statusCode).toBe(401);
    const noTarget = await upload(t, editor, {}, png());
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.json().message).toBe(FILE_MESSAGES.targetRequired);
    const noFile = await upload(t, editor, inOpen(), []);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe(FILE_MESSAGES.fileRequired);
  });

  it('refuses an empty file (400) and one over 25 MiB (413), keeping nothing', async () => {
    const empty = await upload(t, editor, inOpen(), [
      { name: 'file', data: Buffer.alloc(0), filename: 'a.txt' },
    ]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(FILE_MESSAGES.empty);
    const big = await upload(t, editor, inOpen(), [
      { name: 'file', data: Buffer.alloc(FILE_MAX_BYTES + 1, 1), filename: 'big.bin' },
    ]);
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe(FILE_MESSAGES.tooLarge);
    const exact = await upload(t, editor, inOpen(), [
      { name: 'file', data: Buffer.alloc(FILE_MAX_BYTES, 1), filename: 'max.bin' },
    ]);
    expect(exact.statusCode).toBe(201);
    // Spool files of refused uploads are gone.
    expect(await readdir(join(dataDir, 'files', '.spool'))).toEqual([]);
  });

  it('answers a cut-off or malformed multipart body with 400, keeping nothing', async () => {
    const boundary = 'cohort-boundary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="workspaceName"\r\n\r\n${ws.name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="channelId"\r\n\r\n${open._id}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`;
    for (const payload of [`${head}${PNG.toString('latin1')}`, head, `--${boundary}\r\nGarbage`]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/files',
        headers: { ...editor.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(FILE_MESSAGES.malformedUpload);
    }
    expect(await readdir(join(dataDir, 'files', '.spool'))).toEqual([]);
  });

  it('sanitizes names: no path, no control characters, no leading dots, bounded length', async () => {
    const names: Array<[string, string]> = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\win.ini', 'win.ini'],
      ['.htaccess', 'htaccess'],
      ['a\u0000b\u202ec.png', 'abc.png'],
      ['..', 'file'],
      [`${'x'.repeat(300)}.png`, `${'x'.repeat(196)}.png`],
    ];
    for (const [raw, expected] of names) {
      const file = await uploaded(editor, inOpen(), png(raw));
      expect(file.name).toBe(expected);
    }
    // Storage keys are server-made: nothing was written outside DATA_DIR/files.
    expect(existsSync(join(dataDir, 'passwd'))).toBe(false);
  });

  it('multipart bodies are refused (415) everywhere else', async () => {
    const form = new FormData();
    form.append('name', 'x');
    const request = new Request('http://localhost/x', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: { ...admin.auth, 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode).toBe(415);
  });

  it('keeps the Origin guard: a cross-site upload is refused', async () => {
    const form = new FormData();
    form.append('file', new Blob([PNG]), 'a.png');
    const request = new Request('http://localhost/api/files', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: {
        ...editor.auth,
        origin: 'https://evil.example',
        'content-type': request.headers.get('content-type') ?? '',
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/files/{id}', () => {
  it('serves a file only to its uploader until a message carries it, then to the channel readers', async () => {
    const file = await uploaded(editor);
    expect((await api.get(file.url, editor)).statusCode).toBe(200);
    expect((await api.get(file.url, viewer)).statusCode).toBe(404);
    const sent = await post(editor, open._id, [file._id]);
    expect(sent.statusCode, sent.body).toBe(201);
    expect((sent.json() as ChannelMessage).attachments.map((a) => a._id)).toEqual([file._id]);
    for (const reader of [editor, viewer, admin]) {
      const res = await api.get(file.url, reader);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="picture.png"; filename*=UTF-8''picture.png`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain('sandbox');
    }
    expect((await api.get(file.url, outsider)).statusCode).toBe(404);
    expect((await api.get(file.url)).statusCode).toBe(401);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await api.get(`/api/files/${randomUUID()}`, editor)).json()).toEqual({
      message: FILE_MESSAGES.fileNotFound,
    });
    expect((await api.get('/api/files/not-a-uuid', editor)).statusCode).toBe(404);
    expect((await api.get('/api/files/..%2F..%2Fetc%2Fpasswd', editor)).statusCode).toBe(404);
  });

  it('hides files of a private channel from those not listed in it, and from removed members', async () => {
    const file = await uploaded(admin, { workspaceName: ws.name, channelId: secret._id });
    expect((await post(admin, secret._id, [file._id], 'secret plan')).statusCode).toBe(201);
    expect((await api.get(file.url, admin)).statusCode).toBe(200);
    expect((await api.get(file.url, editor)).statusCode).toBe(404);

    const leaver = await createUser(t.app);
    await addMember(t, admin, ws.name, leaver, 'viewer');
    const shared = await uploaded(admin);
    await post(admin, open._id, [shared._id]);
    expect((await api.get(shared.url, leaver)).statusCode).toBe(200);
    await api.del(wsUrl(ws.name, `/members/${leaver.id}`), admin);
    expect((await api.get(shared.url, leaver)).statusCode).toBe(404);
  });

  it('serves a spoofed HTML file (named .png, declared image/png) as a download of type text/html', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>');
    const file = await uploaded(editor, inOpen(), [
      { name: 'file', data: html, filename: 'cat.png', type: 'image/png' },
    ]);
    expect(file.type).toBe('text/html');
    await post(editor, open._id, [file._id]);
    const res = await api.get(file.url, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
  });

  it('never shows SVG or unknown types inline; PDFs, images and audio are inline', async () => {
    const cases: Array<[Buffer<ArrayBufferLike>, string, string, 'inline' | 'attachment']> = [
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'a.svg',
        'image/svg+xml',
        'attachment',
      ],
      [
        Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
        'b.svg',
        'image/svg+xml',
        'attachment',
      ],
      [Buffer.from([0, 1, 2, 3, 255, 254]), 'c.bin', 'application/octet-stream', 'attachment'],
      [Buffer.from('just some notes\n'), 'notes.txt', 'text/plain', 'attachment'],
      [PDF, 'doc.pdf', 'application/pdf', 'inline'],
      [JPEG, 'photo', 'image/jpeg', 'inline'],
      [
        Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('\x42\x82\x84webmA_OPUS')]),
        'v.webm',
        'audio/webm',
        'inline',
      ],
    ];
    const ids: string[] = [];
    for (const [data, filename, type] of cases) {
      const file = await uploaded(editor, inOpen(), [{ name: 'file', data, filename }]);
      expect(file.type, filename).toBe(type);
      ids.push(file._id);
    }
    await post(editor, open._id, ids);
    for (const [i, [, filename, , disposition]] of cases.entries()) {
      const res = await api.get(`/api/files/${ids[i]}`, viewer);
      expect(res.headers['content-disposition'], filename).toMatch(new RegExp(`^${disposition};`));
    }
    const jpeg = await api.get(`/api/files/${ids[5]}`, viewer);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
  });

  it('keeps a voice note duration and an image thumbnail made by the browser', async () => {
    const voice = await uploaded(editor, { ...inOpen(), durationMs: '2350' }, [
      {
        name: 'file',
        data: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('webm A_OPUS')]),
        filename: 'voice-note.webm',
      },
    ]);
    expect(voice).toMatchObject({ type: 'audio/webm', durationMs: 2350 });
    const photo = await uploaded(editor, inOpen(), [
      { name: 'file', data: PNG, filename: 'big.png' },
      { name: 'thumbnail', data: JPEG, filename: 'thumb.jpg' },
    ]);
    expect(photo.thumbnailUrl).toBe(`/api/files/${photo._id}/thumbnail`);
    const thumb = await api.get(photo.thumbnailUrl as string, editor);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.rawPayload.equals(JPEG)).toBe(true);
    const badThumb = await upload(t, editor, inOpen(), [
      { name: 'file', data: PNG, filename: 'big.png' },
      { name: 'thumbnail', data: Buffer.from('<html>'), filename: 'thumb.jpg' },
    ]);
    expect(badThumb.statusCode).toBe(400);
  });
});

describe('attachments on messages', () => {
  it('a message may carry only its sender’s files of the same conversation, each once', async () => {
    const mine = await uploaded(editor);
    const theirs = await uploaded(viewer);
    const elsewhere = await uploaded(editor, { workspaceName: ws.name, channelId: other._id });
    for (const ids of [[theirs._id], [elsewhere._id], [randomUUID()]]) {
      const res = await post(editor, open._id, ids);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(FILE_MESSAGES.attachmentNotFound);
    }
    // Nothing of the refused sends was stored: seq stays gapless.
    const before = (
      await api.get(wsUrl(ws.name, `/channels/${open._id}/messages`), editor)
    ).json() as ChannelMessage[];
    const clientId = randomUUID();
    const first = await post(editor, open._id, [mine._id, mine._id], 'twice in one', clientId);
    expect(first.statusCode).toBe(201);
    expect(first.json().seq).toBe((before.at(-1)?.seq ?? 0) + 1);
    expect(first.json().attachments).toHaveLength(1);
    // A resend of the same clientId answers the original, attachments included.
    const resend = await post(editor, open._id, [mine._id], 'twice in one', clientId);
    expect(resend.statusCode).toBe(200);
    expect(resend.json().attachments.map((a: StoredFile) => a._id)).toEqual([mine._id]);
    // Attached already: not on a second message.
    expect((await post(editor, open._id, [mine._id])).statusCode).toBe(400);
    const history = (
      await api.get(wsUrl(ws.name, `/channels/${open._id}/messages`), viewer)
    ).json() as ChannelMessage[];
    expect(history.at(-1)?.attachments.map((a) => a.name)).toEqual(['picture.png']);
  });

  it('a blank message needs an attachment', async () => {
    const res = await post(editor, open._id, []);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CHAT_MESSAGES.contentRequired);
  });

  it('deleting a message (DELETE …/messages/{id}) deletes its files; the message shows none', async () => {
    const file = await uploaded(editor);
    const sent = (await post(editor, open._id, [file._id], 'oops')).json() as ChannelMessage;
    const keyPath = join(dataDir, 'files', file._id.slice(0, 2), file._id);
    expect(existsSync(keyPath)).toBe(true);
    const del = await api.del(wsUrl(ws.name, `/channels/${open._id}/messages/${sent._id}`), editor);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().attachments).toEqual([]);
    expect(existsSync(keyPath)).toBe(false);
    expect((await api.get(file.url, editor)).statusCode).toBe(404);
  });

  it('deleteFilesOfMessages removes rows and bytes', async () => {
    const file = await uploaded(editor);
    const sent = (await post(editor, open._id, [file._id], 'short-lived')).json() as ChannelMessage;
    const keyPath = join(dataDir, 'files', file._id.slice(0, 2), file._id);
    expect(existsSync(keyPath)).toBe(true);
    expect(await deleteFilesOfMessages(t.ctx, 'channel', [sent._id])).toBe(1);
    expect(existsSync(keyPath)).toBe(false);
    expect((await api.get(file.url, editor)).statusCode).toBe(404);
  });
});

describe('DELETE /api/files/{id}', () => {
  it('lets the uploader take back a file no message carries; nobody else, nothing attached', async () => {
    const file = await uploaded(editor);
    expect((await api.del(file.url, viewer)).statusCode).toBe(404);
    expect((await api.del(file.url, editor)).statusCode).toBe(204);
    expect(existsSync(join(dataDir, 'files', file._id.slice(0, 2), file._id))).toBe(false);
    expect((await api.del(file.url, editor)).statusCode).toBe(404);
    const attached = await uploaded(editor);
    await post(editor, open._id, [attached._id], 'keep');
    expect((await api.del(attached.url, editor)).statusCode).toBe(404);
    expect((await api.get(attached.url, viewer)).statusCode).toBe(200);
  });
});

describe('GET /api/workspaces/{workspaceName}/storage', () => {
  it('tells admins what the workspace’s files take; editors 403, outsiders 404', async () => {
    const res = await api.get(wsUrl(ws.name, '/storage'), admin);
    expect(res.statusCode).toBe(200);
    const usage = res.json();
    expect(usage.files).toBeGreaterThan(5);
    expect(usage.bytes).toBeGreaterThan(FILE_MAX_BYTES);
    expect((await api.get(wsUrl(ws.name, '/storage'), editor)).statusCode).toBe(403);
    expect((await api.get(wsUrl(ws.name, '/storage'), outsider)).statusCode).toBe(404);
  });
});
