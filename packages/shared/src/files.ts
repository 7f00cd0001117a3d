import { z } from 'zod';
import { FILE_MESSAGES, FILE_NAME_MAX_LENGTH, MAX_ATTACHMENTS } from './files.constants.ts';

export * from './files.constants.ts';

/**
 * File sharing: `POST /api/files` (multipart) stores a file for one conversation (a channel, or a
 * direct conversation), messages reference the stored files by id, and `GET /api/files/{id}`
 * serves them to the people who can read that conversation.
 */

/** A stored file as the API presents it (upload answer, and each attachment of a message). */
export const storedFile = z.object({
  _id: z.string(),
  /** The sanitized name. */
  name: z.string(),
  size: z.number().int().nonnegative(),
  /** Detected from the content, never from the name or the declared type. */
  type: z.string(),
  url: z.string(),
  /** A small image made by the uploading browser, when there is one. */
  thumbnailUrl: z.string().nullable(),
  /** Pixel size of images, when the header tells it. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Voice notes: the recorded length in milliseconds, as the recorder reported it. */
  durationMs: z.number().int().nullable(),
});
export type StoredFile = z.infer<typeof storedFile>;
export type Attachment = StoredFile;

/** Ids of uploaded files a message carries (each at most once, all the sender's, same conversation). */
export const attachmentIds = z
  .array(z.uuid({ error: FILE_MESSAGES.attachmentNotFound }))
  .max(MAX_ATTACHMENTS, FILE_MESSAGES.tooManyAttachments);

/** The text fields of the upload form (they must come before the `file` part). */
export const uploadFields = z.union([
  z.object({ workspaceName: z.string().min(1).max(200), channelId: z.string().min(1).max(200) }),
  z.object({ dmWith: z.string().trim().toLowerCase().min(3).max(320) }),
  /** A card's attachment (issue 20): then attached with `POST /api/tasks/{id}/attachments`. */
  z.object({ taskId: z.string().min(1).max(200) }),
]);

export const fileParams = z.object({ id: z.string().min(1).max(100) });

/** GET /api/workspaces/{workspaceName}/storage (admins): what the workspace's files take. */
export const storageUsage = z.object({
  bytes: z.number().int().nonnegative(),
  files: z.number().int(),
  /** STORAGE_QUOTA_MB in bytes: uploads that would pass it get 413. */
  quotaBytes: z.number().int().positive(),
});
export type StorageUsage = z.infer<typeof storageUsage>;

/**
 * A file name safe to store and to send back in Content-Disposition: the last path segment only,
 * no control characters, no characters Windows refuses, no leading dots or spaces, at most
 * FILE_NAME_MAX_LENGTH characters (the extension kept).
 */
export function sanitizeFileName(raw: string): string {
  const lastSegment = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  let name = lastSegment
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  if (name.length > FILE_NAME_MAX_LENGTH) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, FILE_NAME_MAX_LENGTH - ext.length) + ext;
  }
  return name === '' ? 'file' : name;
}
