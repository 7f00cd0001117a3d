import { z } from 'zod';

/**
 * File sharing: `POST /api/files` (multipart) stores a file for one conversation (a channel, or a
 * direct conversation), messages reference the stored files by id, and `GET /api/files/{id}`
 * serves them to the people who can read that conversation.
 */

export const FILE_MAX_BYTES = 25 * 1024 * 1024;
/** A browser-made thumbnail (the `thumbnail` part) may be at most this large. */
export const THUMBNAIL_MAX_BYTES = 512 * 1024;
export const THUMBNAIL_MAX_SIDE = 480;
export const FILE_NAME_MAX_LENGTH = 200;
export const MAX_ATTACHMENTS = 10;

export const FILE_MESSAGES = {
  fileRequired: 'Choose a file to upload',
  malformedUpload:
    'The upload was cut off or is not valid multipart/form-data. Nothing was stored; try again.',
  empty: 'The file is empty',
  tooLarge: 'The file is too large (25 MiB at most)',
  thumbnailInvalid: 'The thumbnail must be a JPEG image of 512 KiB at most',
  targetRequired: 'Say where the file goes: workspaceName and channelId, dmWith, or taskId',
  fileNotFound: 'File not found',
  attachmentNotFound: 'Attachment not found',
  tooManyAttachments: `At most ${MAX_ATTACHMENTS} attachments per message`,
} as const;

/** Types a browser may show in place; everything else (SVG and HTML included) is a download. */
export const INLINE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'audio/webm',
  'audio/ogg',
  'audio/mpeg',
  'audio/wav',
  'audio/mp4',
] as const;

export const isInlineType = (type: string) => (INLINE_TYPES as readonly string[]).includes(type);
export const isImageType = (type: string) => isInlineType(type) && type.startsWith('image/');
export const isAudioType = (type: string) => isInlineType(type) && type.startsWith('audio/');

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

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
