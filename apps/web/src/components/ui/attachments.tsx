import type { StoredFile } from '@cohort/shared/files';
import { formatBytes, isAudioType, isImageType } from '@cohort/shared/files.constants';
import { FileText, Mic } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

export const formatDuration = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** A message's files: images as previews, audio as a player, anything else as a file card. */
export function Attachments({ files, own = false }: { files: StoredFile[]; own?: boolean }) {
  if (files.length === 0) return null;
  return (
    <ul aria-label="Attachments" className="mt-1.5 flex flex-col gap-1.5">
      {files.map((file) => (
        <li key={file._id}>
          <Attachment file={file} own={own} />
        </li>
      ))}
    </ul>
  );
}

function Attachment({ file, own }: { file: StoredFile; own: boolean }) {
  if (isImageType(file.type)) {
    // The browser scales the preview; width/height from the header keep the layout from jumping.
    return (
      <a href={file.url} target="_blank" rel="noopener noreferrer" className="block w-fit">
        <img
          src={file.thumbnailUrl ?? file.url}
          alt={file.name}
          width={file.width ?? undefined}
          height={file.height ?? undefined}
          loading="lazy"
          className="h-auto max-h-60 w-auto max-w-full rounded-lg bg-white object-contain sm:max-w-xs"
        />
      </a>
    );
  }
  if (isAudioType(file.type)) {
    return (
      <div className="flex flex-col gap-1">
        <span
          className={cn('inline-flex items-center gap-1 text-xs', own ? 'text-indigo-100' : 'text-slate-600')}
        >
          <Mic aria-hidden="true" className="size-3" />
          Voice note{file.durationMs !== null ? ` · ${formatDuration(file.durationMs)}` : ''}
        </span>
        {/* biome-ignore lint/a11y/useMediaCaption: a voice note has no caption track */}
        <audio
          controls
          preload="metadata"
          src={file.url}
          aria-label={`Voice note ${file.name}`}
          className="h-9 max-w-64"
        />
      </div>
    );
  }
  return (
    <a
      href={file.url}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        'flex max-w-xs items-center gap-2 rounded-lg border px-3 py-2 no-underline',
        own ? 'border-indigo-400 bg-indigo-700 text-white' : 'border-slate-300 bg-white text-slate-900',
      )}
    >
      <FileText aria-hidden="true" className="size-5 shrink-0" />
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium">{file.name}</span>
        <span className={cn('block text-xs', own ? 'text-indigo-100' : 'text-slate-600')}>
          {formatBytes(file.size)}
        </span>
      </span>
    </a>
  );
}
