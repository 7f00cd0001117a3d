import { apiError } from '@cohort/shared/errors';
import {
  FILE_MAX_BYTES,
  FILE_MESSAGES,
  fileParams,
  isInlineType,
  storageUsage,
  storedFile,
  THUMBNAIL_MAX_BYTES,
  uploadFields,
} from '@cohort/shared/files';
import { workspaceParams } from '@cohort/shared/workspaces';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { loadWorkspaceForUser } from '../workspaces/workspaces.access.ts';
import { authorize } from '../workspaces/workspaces.policy.ts';
import type { BoardFiles } from './files.access.ts';
import { type FileRow, presentFile } from './files.presenter.ts';
import {
  deleteUnattachedFile,
  discardSpooled,
  type FileTarget,
  loadFileForUser,
  openFile,
  resolveTarget,
  type Spooled,
  spool,
  storeUpload,
  workspaceStorage,
} from './files.service.ts';

const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError, 413: apiError };

/** Served files never run as a page of ours: no scripts, no plugins, a sandboxed origin. */
const FILE_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

function contentDisposition(kind: 'inline' | 'attachment', name: string) {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function sendStored(reply: FastifyReply, file: FileRow, body: NodeJS.ReadableStream, thumbnail: boolean) {
  const type = thumbnail ? 'image/jpeg' : file.type;
  // Only images, audio and PDFs are shown in place; SVG, HTML and everything else are downloads.
  const inline = thumbnail || isInlineType(file.type);
  return reply
    .header('content-type', type === 'text/plain' ? 'text/plain; charset=utf-8' : type)
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILE_CSP)
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'private, max-age=3600')
    .send(body);
}

/** What busboy says of a multipart body that ends early or is not multipart at all. */
const MALFORMED =
  /Unexpected end of (form|file|multipart)|Malformed part header|Boundary not found|Part terminated early/i;
const isMalformedMultipart = (err: unknown) =>
  err instanceof Error && !(err instanceof HttpError) && MALFORMED.test(err.message);

/**
 * Shared files: upload for a conversation (multipart, the only non-JSON body the API accepts, and
 * only on this route), download for the people who can read it, and storage use for admins.
 */
export const filesRoutes =
  (ctx: AppContext, boards?: BoardFiles): FastifyPluginAsyncZod =>
  async (app) => {
    // Registered in this plugin only: every other route keeps answering 415 to multipart bodies.
    await app.register(fastifyMultipart, {
      limits: { fileSize: FILE_MAX_BYTES, files: 2, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 100 },
    });
    app.addHook('onRequest', async (request) => {
      await requireUser(ctx, request);
    });
    const tags = ['files'];

    app.post(
      '/api/files',
      {
        schema: {
          tags,
          description:
            'multipart/form-data: fields `workspaceName` + `channelId`, `dmWith` (an e-mail) or `taskId` (a card), then the part `file` ' +
            '(25 MiB at most); optionally `thumbnail` (a JPEG of 512 KiB at most) and `durationMs` for audio.',
          consumes: ['multipart/form-data'],
          response: { 201: storedFile, ...errorResponses, 415: apiError },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        if (!request.isMultipart()) {
          throw new HttpError(415, 'Send the file as multipart/form-data');
        }
        const fields: Record<string, string> = {};
        let target: FileTarget | undefined;
        let file: { spooled: Spooled; name: string } | undefined;
        let thumbnail: Spooled | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              fields[part.fieldname] = String(part.value);
              continue;
            }
            if (part.fieldname === 'file' && !file) {
              const parsed = uploadFields.safeParse(fields);
              if (!parsed.success) throw badRequest(FILE_MESSAGES.targetRequired);
              target = await resolveTarget(ctx, user, fields, boards);
              file = { spooled: await spool(ctx, part.file), name: part.filename ?? '' };
            } else if (part.fieldname === 'thumbnail' && !thumbnail) {
              thumbnail = await spool(ctx, part.file, THUMBNAIL_MAX_BYTES);
            } else {
              part.file.resume();
            }
          }
          if (!file || !target) throw badRequest(FILE_MESSAGES.fileRequired, 'file');
          const durationMs = fields.durationMs === undefined ? undefined : Number(fields.durationMs);
          const row = await storeUpload(ctx, user, target, { ...file, thumbnail, durationMs });
          return reply.status(201).send(presentFile(row));
        } catch (err) {
          // A body cut off or malformed by the client is its error, not the server's.
          if (isMalformedMultipart(err)) throw badRequest(FILE_MESSAGES.malformedUpload);
          throw err;
        } finally {
          await discardSpooled(file?.spooled);
          await discardSpooled(thumbnail);
        }
      },
    );

    app.get('/api/files/:id', { schema: { tags, params: fileParams } }, async (request, reply) => {
      const user = await requireUser(ctx, request);
      const file = await loadFileForUser(ctx, user, request.params.id, boards);
      const body = await openFile(ctx, file.storageKey);
      reply.header('content-length', file.size);
      return sendStored(reply, file, body, false);
    });

    app.delete(
      '/api/files/:id',
      { schema: { tags, params: fileParams, response: { 204: z.null(), ...errorResponses } } },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        await deleteUnattachedFile(ctx, user, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get('/api/files/:id/thumbnail', { schema: { tags, params: fileParams } }, async (request, reply) => {
      const user = await requireUser(ctx, request);
      const file = await loadFileForUser(ctx, user, request.params.id, boards);
      if (!file.thumbnailKey) return reply.redirect(`/api/files/${file.id}`);
      return sendStored(reply, file, await openFile(ctx, file.thumbnailKey), true);
    });

    app.get(
      '/api/workspaces/:workspaceName/storage',
      { schema: { tags, params: workspaceParams, response: { 200: storageUsage, ...errorResponses } } },
      async (request) => {
        const user = await requireUser(ctx, request);
        const { workspace, role } = await loadWorkspaceForUser(ctx, user, request.params.workspaceName);
        authorize(role, 'viewStorage');
        return workspaceStorage(ctx, workspace.id);
      },
    );
  };
