import { LogOut, Mic, MicOff, MonitorUp, Video, VideoOff } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { CallNotice } from './call-notice.tsx';
import { useMeshCall } from './use-mesh-call.ts';
import { VideoTile } from './video-tile.tsx';

interface MeshCallViewProps {
  /** The mesh room: a channel id (/videocall) or an ad-hoc room id (/mesh). */
  room: string;
  heading: string;
  /** Shown under the heading: what this call is, links. */
  children?: ReactNode;
  /** Join at once (the channel's one-click Join), without pressing Start Call. */
  autoStart?: boolean;
}

/** A tile's mute badges: icons, read out as "(muted, camera off)". */
function muteBadges(audio: boolean, video: boolean): ReactNode {
  if (!audio && !video) return null;
  const text = [audio && 'muted', video && 'camera off'].filter(Boolean).join(', ');
  return (
    <span className="flex shrink-0 items-center gap-1 text-amber-200" title={text}>
      {audio && <MicOff aria-hidden="true" className="size-4" />}
      {video && <VideoOff aria-hidden="true" className="size-4" />}
      <span className="sr-only"> ({text})</span>
    </span>
  );
}

/**
 * The screen both /videocall and /mesh show (SPEC §2 "Video screens"): the heading, Start Call, the
 * muted local video and a 200 px tile per remote participant with their name.
 */
export function MeshCallView({ room, heading, children, autoStart = false }: MeshCallViewProps) {
  const { call, view } = useMeshCall(room);
  const started = view.status !== 'idle';
  const autoStarted = useRef<unknown>(null);
  useEffect(() => {
    if (!autoStart || !call || autoStarted.current === call) return;
    autoStarted.current = call;
    void call.start();
  }, [autoStart, call]);

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6" data-testid="mesh-call" data-status={view.status}>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{heading}</h1>
      {children}

      <div className="mt-6 flex flex-wrap gap-2">
        {started ? (
          <>
            <Button variant="secondary" onClick={() => call?.leave()}>
              <LogOut aria-hidden="true" className="size-4" />
              Leave Call
            </Button>
            <Button variant="secondary" aria-pressed={view.audioMuted} onClick={() => call?.toggleAudio()}>
              {view.audioMuted ? (
                <MicOff aria-hidden="true" className="size-4" />
              ) : (
                <Mic aria-hidden="true" className="size-4" />
              )}
              Mute
            </Button>
            <Button variant="secondary" aria-pressed={view.videoMuted} onClick={() => call?.toggleVideo()}>
              {view.videoMuted ? (
                <VideoOff aria-hidden="true" className="size-4" />
              ) : (
                <Video aria-hidden="true" className="size-4" />
              )}
              Camera off
            </Button>
            <Button
              variant="secondary"
              aria-pressed={view.sharing}
              disabled={view.status !== 'in-call'}
              onClick={() => void call?.toggleScreenShare()}
            >
              <MonitorUp aria-hidden="true" className="size-4" />
              Share Screen
            </Button>
          </>
        ) : (
          <Button onClick={() => void call?.start()} disabled={!call}>
            <Video aria-hidden="true" className="size-4" />
            Start Call
          </Button>
        )}
      </div>

      <CallNotice notice={view.notice} onDismiss={() => call?.dismissNotice()} />
      {view.status === 'in-call' && (
        <p role="status" className="mt-4 text-sm text-slate-700">
          {view.peers.length === 0
            ? 'Waiting for others to join…'
            : `${view.peers.length + 1} people in the call`}
        </p>
      )}

      <div className="mt-6 flex flex-wrap items-start gap-4">
        <VideoTile
          stream={view.local}
          label="You"
          status={muteBadges(view.audioMuted, view.videoMuted)}
          muted
          mirrored={!view.sharing}
          videoTestId="local-video"
          className="w-full max-w-sm"
        />
        <section aria-label="Remote videos" className="flex flex-wrap gap-3">
          {view.peers.map((peer) => (
            <VideoTile
              key={peer.id}
              stream={peer.stream}
              label={peer.name}
              status={muteBadges(peer.audioMuted, peer.videoMuted)}
              title={peer.email}
              data-testid="remote-tile"
              data-connection={peer.connection}
              data-audio-muted={String(peer.audioMuted)}
              data-video-muted={String(peer.videoMuted)}
              videoTestId="remote-video"
              className="w-[200px]"
            />
          ))}
        </section>
      </div>
    </div>
  );
}
