import { formatBytes } from '@cohort/shared/files.constants';
import { Loader2, X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { formatDuration } from '../ui/attachments.tsx';
import type { ComposerFile } from './use-composer-files.ts';

/** The files waiting to be sent, each with its upload state and a Remove button. */
export function ComposerFileList({
  files,
  onRemove,
}: {
  files: ComposerFile[];
  onRemove: (file: ComposerFile) => void;
}) {
  return (
    <ul aria-label="Files to send" className="mt-1 flex flex-wrap gap-1.5">
      {files.map((f) => (
        <li
          key={f.id}
          className={cn(
            'inline-flex max-w-full items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs',
            f.status === 'failed'
              ? 'border-red-300 bg-red-50 text-red-900'
              : 'border-slate-300 bg-slate-50 text-slate-800',
          )}
        >
          {f.status === 'uploading' && <Loader2 aria-label="Uploading" className="size-3 animate-spin" />}
          <span className="max-w-48 truncate">{f.name}</span>
          <span className="text-slate-600">
            {f.durationMs !== undefined ? formatDuration(f.durationMs) : formatBytes(f.blob.size)}
            {f.status === 'failed' ? ` · ${f.error ?? 'failed'}` : ''}
          </span>
          <button
            type="button"
            aria-label={`Remove ${f.name}`}
            className="rounded-full p-0.5 hover:bg-slate-200"
            onClick={() => onRemove(f)}
          >
            <X aria-hidden="true" className="size-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}
