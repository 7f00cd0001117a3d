import type { TestUser } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/test-app.ts';

/** A 1×1 PNG (width and height in its header). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** A minimal JPEG header (SOI, then a SOF0 of 2×3). */
export const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x03, 0x00, 0x02, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01,
  0x03, 0x11, 0x01, 0xff, 0xd9,
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export interface UploadPart {
  name: string;
  data: Buffer<ArrayBufferLike>;
  filename?: string;
  type?: string;
}

/** Uploads through the real multipart route (fields first, then the file parts). */
export async function upload(
  t: TestApp,
  as: TestUser | undefined,
  fields: Record<string, string>,
  files: UploadPart[],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    form.append(
      f.name,
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.filename ?? 'file',
    );
  }
  const request = new Request('http://localhost/api/files', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return t.app.inject({
    method: 'POST',
    url: '/api/files',
    headers: { ...(as?.auth ?? {}), 'content-type': request.headers.get('content-type') ?? '' },
    payload,
  });
}
