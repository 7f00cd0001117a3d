import type { StoredFile } from '@cohort/shared/files';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { makeThumbnail, type UploadTarget, uploadFile } from './upload.ts';

/** A file chosen, recorded or annotated in the composer. */
export interface ComposerFile {
  id: string;
  name: string;
  blob: Blob;
  durationMs?: number;
  /** `local`: kept in the browser (no conversation yet, /canvas); the others are uploads. */
  status: 'local' | 'uploading' | 'ready' | 'failed';
  stored?: StoredFile;
  error?: string;
}

let nextFileId = 0;

/**
 * The composer's attachments: each file is uploaded to `uploadTarget` as soon as it is added (or
 * kept in the browser without one), and an image can be annotated before it is sent.
 */
export function useComposerFiles(uploadTarget: UploadTarget | null) {
  const [files, setFiles] = useState<ComposerFile[]>([]);
  const [annotating, setAnnotating] = useState<ComposerFile | null>(null);
  const documentInput = useRef<HTMLInputElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const targetKey = uploadTarget ? JSON.stringify(uploadTarget) : '';

  // Files belong to one conversation: switching conversations starts over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the target changes
  useEffect(() => setFiles([]), [targetKey]);

  const update = (fileId: string, patch: Partial<ComposerFile>) =>
    setFiles((list) => list.map((f) => (f.id === fileId ? { ...f, ...patch } : f)));

  /** Drops a file from the composer; an upload no message carries is deleted on the server too. */
  const removed = useRef(new Set<string>());
  const removeFile = (file: ComposerFile) => {
    removed.current.add(file.id);
    setFiles((list) => list.filter((f) => f.id !== file.id));
    if (file.stored) api.delete(file.stored.url).catch(() => {});
  };

  const addFile = async (blob: Blob, name: string, durationMs?: number, replaces?: ComposerFile) => {
    if (replaces) removeFile(replaces);
    nextFileId += 1;
    const file: ComposerFile = {
      id: `f${nextFileId}`,
      name,
      blob,
      ...(durationMs !== undefined ? { durationMs } : {}),
      status: uploadTarget ? 'uploading' : 'local',
    };
    setFiles((list) => [...list, file]);
    if (!uploadTarget) return;
    try {
      const thumbnail = await makeThumbnail(blob);
      const stored = await uploadFile(uploadTarget, blob, name, { durationMs, thumbnail });
      // Removed while it was uploading: take it back at once.
      if (removed.current.has(file.id)) api.delete(stored.url).catch(() => {});
      else update(file.id, { status: 'ready', stored });
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Upload failed';
      update(file.id, { status: 'failed', error: message });
      toast.error(`${name}: ${message}`);
    }
  };

  const onChooseDocuments = (event: ChangeEvent<HTMLInputElement>) => {
    for (const file of Array.from(event.target.files ?? [])) void addFile(file, file.name);
    event.target.value = '';
  };

  const onChooseImage = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    nextFileId += 1;
    setAnnotating({ id: `new${nextFileId}`, name: chosen.name, blob: chosen, status: 'local' });
  };

  /** Annotate the newest image already attached, or pick one to annotate. */
  const annotate = () => {
    const image = files.findLast((f) => f.blob.type.startsWith('image/') && f.blob.type !== 'image/svg+xml');
    if (image) setAnnotating(image);
    else imageInput.current?.click();
  };

  /** The annotated image replaces the one it was drawn on. */
  const finishAnnotating = (png: Blob) => {
    if (!annotating) return;
    const base = annotating.name.replace(/\.[^.]+$/, '');
    const replaces = files.find((f) => f.id === annotating.id);
    setAnnotating(null);
    void addFile(png, `${base}-annotated.png`, undefined, replaces);
  };

  return {
    files,
    uploading: files.some((f) => f.status === 'uploading'),
    usable: files.filter((f) => f.status === 'ready' || f.status === 'local'),
    clear: () => setFiles([]),
    addFile,
    removeFile,
    documentInput,
    imageInput,
    onChooseDocuments,
    onChooseImage,
    annotating,
    annotate,
    cancelAnnotating: () => setAnnotating(null),
    finishAnnotating,
  };
}
