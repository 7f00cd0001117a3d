import type { StoredFile } from '@cohort/shared/files';
import { THUMBNAIL_MAX_SIDE } from '@cohort/shared/files.constants';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { loadLive } from '../../lib/live.ts';

/** Where a composer's files go: a channel, a direct conversation with this e-mail, or a task card. */
export type UploadTarget =
  | { workspaceName: string; channelId: string }
  | { dmWith: string }
  | { taskId: string };

/** Uploads one file (target fields first, as the server wants them before the file part). */
export async function uploadFile(
  target: UploadTarget,
  blob: Blob,
  name: string,
  extra: { durationMs?: number | undefined; thumbnail?: Blob | null | undefined } = {},
): Promise<StoredFile> {
  const form = new FormData();
  for (const [key, value] of Object.entries(target)) form.append(key, value);
  if (extra.durationMs !== undefined) form.append('durationMs', String(Math.round(extra.durationMs)));
  form.append('file', blob, name);
  if (extra.thumbnail) form.append('thumbnail', extra.thumbnail, 'thumbnail.jpg');
  let response: Response;
  try {
    response = await fetch('/api/files', { method: 'POST', body: form, credentials: 'same-origin' });
  } catch (cause) {
    throw new NetworkError(cause);
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      typeof data === 'object' && data && typeof (data as { message?: unknown }).message === 'string'
        ? (data as { message: string }).message
        : `Upload failed (${response.status})`;
    throw new ApiError(response.status, message);
  }
  // Loaded long before: the page fetched the live client after its first render.
  return (await loadLive()).storedFile.parse(data);
}

/**
 * A small JPEG preview of an image, made here so the server never decodes images: the longest side
 * at most THUMBNAIL_MAX_SIDE. Null for images already small, or that the browser cannot decode.
 */
export async function makeThumbnail(blob: Blob): Promise<Blob | null> {
  if (!blob.type.startsWith('image/') || blob.type === 'image/svg+xml') return null;
  try {
    const bitmap = await createImageBitmap(blob);
    const scale = Math.min(1, THUMBNAIL_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && blob.size < 150_000) return null;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return null;
    // JPEG has no transparency: a white background instead of black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return await new Promise((resolve) => canvas.toBlob((b) => resolve(b), 'image/jpeg', 0.8));
  } catch {
    return null;
  }
}
