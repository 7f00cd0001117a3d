import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3 {
  url: string;
  bucket: string;
  /** Stored objects by key. */
  objects: Map<string, { body: Buffer; type: string }>;
  /** Every request, as `METHOD /path` (to check what the client did). */
  requests: string[];
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/**
 * A tiny S3-compatible server for tests: path-style PutObject, GetObject and DeleteObject on one
 * bucket, refusing requests that are not SigV4-signed with the expected access key.
 */
export async function startFakeS3(opts: { bucket?: string; accessKeyId?: string } = {}): Promise<FakeS3> {
  const bucket = opts.bucket ?? 'cohort-files';
  const accessKeyId = opts.accessKeyId ?? 'AKIDTEST';
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    requests.push(`${req.method} ${path}`);
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(xmlError('AccessDenied', 'Access Denied'));
      return;
    }
    const prefix = `/${bucket}/`;
    if (!path.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'application/xml' });
      res.end(xmlError('NoSuchBucket', 'The specified bucket does not exist'));
      return;
    }
    const key = path.slice(prefix.length);
    if (req.method === 'PUT') {
      const body = await readBody(req);
      if (
        req.headers['content-length'] !== undefined &&
        Number(req.headers['content-length']) !== body.length
      ) {
        res.writeHead(400, { 'content-type': 'application/xml' });
        res.end(xmlError('IncompleteBody', 'Length mismatch'));
        return;
      }
      objects.set(key, { body, type: String(req.headers['content-type'] ?? 'application/octet-stream') });
      res.writeHead(200, { etag: '"fake"' });
      res.end();
      return;
    }
    if (req.method === 'GET') {
      const object = objects.get(key);
      if (!object) {
        res.writeHead(404, { 'content-type': 'application/xml' });
        res.end(xmlError('NoSuchKey', 'The specified key does not exist.'));
        return;
      }
      res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length });
      res.end(object.body);
      return;
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(405);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The SDK keeps connections alive; do not wait for them to idle out.
        server.closeAllConnections();
      }),
  };
}
