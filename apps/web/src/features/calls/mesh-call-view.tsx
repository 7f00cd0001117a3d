import { LogOut, Mic, MicOff, MonitorUp, Video, VideoOff } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { CallNotice } from './call-notice.tsx';
import { speakerLayout } from './sfu-layout.ts';
import { type MeshView, type RemotePeer, type SfuView, useMeshCall } from './use-mesh-call.ts';
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

type TileSize = 'large' | 'small';

/** A remote participant's tile (the same test ids and attributes in the mesh and the SFU layouts). */
function RemoteTile({
  peer,
  speaking,
  size,
  className,
}: {
  peer: RemotePeer;
  speaking?: boolean;
  size?: TileSize;
  className: string;
}) {
  return (
    <VideoTile
      stream={peer.stream}
      label={peer.name}
      status={muteBadges(peer.audioMuted, peer.videoMuted)}
      title={peer.email}
      data-testid="remote-tile"
      data-connection={peer.connection}
      data-audio-muted={String(peer.audioMuted)}
      data-video-muted={String(peer.videoMuted)}
      data-speaking={speaking ? 'true' : undefined}
      data-size={size}
      videoTestId="remote-video"
      className={cn(className, speaking && 'ring-4 ring-emerald-400')}
    />
  );
}

function LocalTile({
  view,
  speaking,
  size,
  className,
}: {
  view: MeshView;
  speaking?: boolean;
  size?: TileSize;
  className: string;
}) {
  return (
    <VideoTile
      stream={view.local}
      label="You"
      status={muteBadges(view.audioMuted, view.videoMuted)}
      muted
      mirrored={!view.sharing}
      videoTestId="local-video"
      data-speaking={speaking ? 'true' : undefined}
      data-size={size}
      className={cn(className, speaking && 'ring-4 ring-emerald-400')}
    />
  );
}

/** Large tiles show whole frames (a shared screen must not lose its edges); small tiles stay small. */
const LARGE = 'w-full max-w-2xl sm:min-w-64 sm:flex-1 [&_video]:aspect-video [&_video]:object-contain';
const SMALL = 'w-[160px] shrink-0';

/**
 * An SFU meeting (up to 25): whoever speaks is large (else the last speaker, else the first
 * participant), everyone else small in rows below. Every tile is a keyed child of ONE list, so when
 * the speaker changes React moves the tile: its <video> keeps playing, where a tile remounted in
 * another section would go black and wait for the next decoded frame.
 */
export function SpeakerLayoutView({ view, sfu }: { view: MeshView; sfu: SfuView }) {
  const speaking = new Set(sfu.speaking);
  const { large, strip } = speakerLayout(
    view.peers.map((p) => p.id),
    speaking,
    sfu.lastSpeaker,
  );
  const byId = new Map(view.peers.map((p) => [p.id, p]));
  const remote = (id: string, size: TileSize) => {
    const peer = byId.get(id);
    return peer ? (
      <RemoteTile
        key={id}
        peer={peer}
        speaking={speaking.has(id)}
        size={size}
        className={size === 'large' ? LARGE : SMALL}
      />
    ) : null;
  };
  const self = (size: TileSize) => (
    <LocalTile
      key="self"
      view={view}
      speaking={speaking.has(sfu.self)}
      size={size}
      className={size === 'large' ? LARGE : SMALL}
    />
  );
  const tiles =
    large.length === 0
      ? // Alone in the meeting: our own picture fills the stage.
        [self('large')]
      : [
          ...large.map((id) => remote(id, 'large')),
          // Ends the row of speakers: the small tiles start on a row of their own.
          <div key="row-break" aria-hidden="true" className="h-0 basis-full" />,
          self('small'),
          ...strip.map((id) => remote(id, 'small')),
        ];
  return (
    <section
      aria-label="Participants"
      className="mt-6 flex flex-wrap justify-center gap-3"
      data-testid="sfu-layout"
      data-layout="speaker"
    >
      {tiles}
    </section>
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

      {view.sfu ? (
        <SpeakerLayoutView view={view} sfu={view.sfu} />
      ) : (
        <div className="mt-6 flex flex-wrap items-start gap-4">
          <LocalTile view={view} className="w-full max-w-sm" />
          <section aria-label="Remote videos" className="flex flex-wrap gap-3">
            {view.peers.map((peer) => (
              <RemoteTile key={peer.id} peer={peer} className="w-[200px]" />
            ))}
          </section>
        </div>
      )}
    </div>
  );
}
