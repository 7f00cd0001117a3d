import type { PresenceStatus } from '@cohort/shared/presence';
import { cn } from '../../lib/cn.ts';

const STYLES: Record<PresenceStatus, string> = {
  online: 'bg-emerald-500 ring-emerald-600',
  away: 'bg-amber-400 ring-amber-500',
  offline: 'bg-white ring-slate-400',
};

/**
 * A presence dot: green online, amber away, hollow grey offline. Colour is not the only cue: the
 * status is its accessible name (and tooltip), and offline is hollow. Nothing shows while unknown.
 */
export function PresenceDot({
  status,
  className,
}: {
  status: PresenceStatus | null | undefined;
  className?: string;
}) {
  if (!status) return null;
  return (
    <span
      role="img"
      aria-label={status}
      title={status[0]?.toUpperCase() + status.slice(1)}
      data-status={status}
      className={cn(
        'inline-block size-2.5 shrink-0 rounded-full ring-2 ring-inset',
        STYLES[status],
        className,
      )}
    />
  );
}
