import { type HTMLAttributes, type ReactNode, useEffect, useRef } from 'react';
import { cn } from '../../lib/cn.ts';

interface VideoTileProps extends HTMLAttributes<HTMLElement> {
  stream: MediaStream | null;
  label: string;
  /** The local preview is muted so nobody hears themselves (SPEC §9). */
  muted?: boolean;
  videoTestId?: string;
  mirrored?: boolean;
  /** Shown after the name and never cut off by it (the mute badges). */
  status?: ReactNode;
}

/** A captioned <video> playing a MediaStream (set as srcObject, which React cannot do as a prop). */
export function VideoTile({
  stream,
  label,
  muted = false,
  videoTestId,
  mirrored,
  status,
  className,
  ...rest
}: VideoTileProps) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || video.srcObject === stream) return;
    video.srcObject = stream;
    if (stream) void video.play().catch(() => {});
  }, [stream]);

  return (
    <figure className={cn('overflow-hidden rounded-xl bg-slate-900 shadow-sm', className)} {...rest}>
      <video
        ref={ref}
        data-testid={videoTestId}
        autoPlay
        playsInline
        muted={muted}
        aria-label={`${label} video`}
        className={cn('aspect-[4/3] w-full bg-slate-900 object-cover', mirrored && '-scale-x-100')}
      />
      <figcaption className="flex gap-1 bg-slate-800 px-3 py-1.5 text-sm font-medium text-white">
        <span className="min-w-0 truncate">{label}</span>
        {status}
      </figcaption>
    </figure>
  );
}
