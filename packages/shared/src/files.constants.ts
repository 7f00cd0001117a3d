// What files.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). files.ts re-exports all of it.

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
