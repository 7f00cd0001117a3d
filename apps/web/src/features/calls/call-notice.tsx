import { X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

export interface Notice {
  kind: 'error' | 'info';
  text: string;
}

/** The last thing the call has to tell: an error (alert) or an outcome such as "Call ended" (status). */
export function CallNotice({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  if (!notice) return null;
  return (
    <div
      role={notice.kind === 'error' ? 'alert' : 'status'}
      className={cn(
        'mt-4 flex items-start justify-between gap-3 rounded-lg border px-4 py-2 text-sm',
        notice.kind === 'error'
          ? 'border-red-200 bg-red-50 text-red-800'
          : 'border-slate-200 bg-slate-50 text-slate-800',
      )}
    >
      <p>{notice.text}</p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="rounded p-0.5 hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
