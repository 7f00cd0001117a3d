import { Mic, MicOff, MonitorUp, Phone, PhoneOff, Video, VideoOff } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { connectionMessage, useConnectionState } from '../../lib/socket.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { CallNotice } from './call-notice.tsx';
import { useVideoCall } from './use-video-call.ts';
import { VideoTile } from './video-tile.tsx';

const PHASE_TEXT = {
  idle: null,
  calling: 'Calling',
  incoming: null,
  'in-call': 'In call with',
} as const;

/**
 * /video (SPEC §2 "Video call by e-mail"): Your ID, the callee's e-mail and Call, the incoming-call
 * panel, the Local/Remote grid and the in-call controls. The page keeps a `/video` connection open
 * while shown, so calls ring here.
 */
export default function VideoPage() {
  useDocumentTitle('Video call');
  const me = useMe();
  const { call, view } = useVideoCall();
  // `/video?call=<email>` (a profile card's Call button, calls.public.ts): that person, called at once.
  const [searchParams, setSearchParams] = useSearchParams();
  const wanted = searchParams.get('call');
  const [callee, setCallee] = useState(wanted ?? '');
  // Calls ring only while the `/video` connection is up.
  const signalling = useConnectionState(call?.socket ?? null);
  const offline = connectionMessage(signalling);
  const { phase } = view.call;
  const inCall = view.call.phase === 'in-call' ? view.call : null;
  const peer = view.call.phase === 'idle' ? null : view.call.peer;

  const idle = view.call.phase === 'idle';
  useEffect(() => {
    if (!wanted || !call || signalling !== 'connected' || !idle) return;
    // Once: the parameter goes, so a reload or Back does not call again.
    setSearchParams({}, { replace: true });
    void call.call(wanted);
  }, [wanted, call, signalling, idle, setSearchParams]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void call?.call(callee);
  };

  return (
    <div
      className="mx-auto max-w-5xl px-4 py-8 sm:px-6"
      data-testid="video-call"
      data-phase={phase}
      data-signalling={signalling}
      data-connection={view.connection}
      data-audio-sending={String(view.sending.audio)}
      data-video-sending={String(view.sending.video)}
    >
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Video call</h1>
      <p className="mt-2 text-slate-700">
        Your ID: <span className="font-semibold text-slate-900">{me.data?.email}</span>
      </p>

      {offline && (
        <p role="status" className="mt-2 text-sm text-amber-800">
          {offline}
        </p>
      )}

      <form onSubmit={onSubmit} noValidate className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <TextField
            label="E-mail to call"
            hideLabel
            type="email"
            placeholder="Enter email ID to call"
            value={callee}
            onChange={(e) => setCallee(e.target.value)}
            autoComplete="off"
          />
        </div>
        <Button type="submit" disabled={phase !== 'idle' || !call}>
          <Phone aria-hidden="true" className="size-4" />
          Call
        </Button>
      </form>

      <CallNotice notice={view.notice} onDismiss={() => call?.dismissNotice()} />

      {view.call.phase === 'incoming' && (
        <section
          aria-labelledby="incoming-call-heading"
          className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-indigo-200 bg-indigo-50 px-5 py-4"
        >
          <h2 id="incoming-call-heading" className="font-semibold text-indigo-900">
            Incoming call from {view.call.peer}
          </h2>
          <div className="flex gap-2">
            <Button onClick={() => void call?.accept()}>
              <Phone aria-hidden="true" className="size-4" />
              Accept
            </Button>
            <Button variant="secondary" onClick={() => call?.reject()}>
              <PhoneOff aria-hidden="true" className="size-4" />
              Reject
            </Button>
          </div>
        </section>
      )}

      {PHASE_TEXT[phase] && peer && (
        <p role="status" className="mt-6 text-slate-700">
          {PHASE_TEXT[phase]} <span className="font-semibold">{peer}</span>
          {phase === 'calling' && '…'}
        </p>
      )}

      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <VideoTile
          stream={view.local}
          label="Local"
          muted
          mirrored={!view.sharing}
          videoTestId="local-video"
        />
        <VideoTile stream={view.remote} label="Remote" videoTestId="remote-video" />
      </div>

      {phase !== 'idle' && phase !== 'incoming' && (
        <div className="mt-6 flex flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-pressed={inCall?.audioMuted ?? false}
            disabled={!inCall}
            onClick={() => call?.toggleAudio()}
          >
            {inCall?.audioMuted ? (
              <MicOff aria-hidden="true" className="size-4" />
            ) : (
              <Mic aria-hidden="true" className="size-4" />
            )}
            Mute Audio
          </Button>
          <Button
            variant="secondary"
            aria-pressed={inCall?.videoMuted ?? false}
            disabled={!inCall}
            onClick={() => call?.toggleVideo()}
          >
            {inCall?.videoMuted ? (
              <VideoOff aria-hidden="true" className="size-4" />
            ) : (
              <Video aria-hidden="true" className="size-4" />
            )}
            Mute Video
          </Button>
          <Button
            variant="secondary"
            aria-pressed={view.sharing}
            disabled={!inCall}
            onClick={() => void call?.toggleScreenShare()}
          >
            <MonitorUp aria-hidden="true" className="size-4" />
            Share Screen
          </Button>
          <Button className="bg-red-600 hover:bg-red-700" onClick={() => call?.hangUp()}>
            <PhoneOff aria-hidden="true" className="size-4" />
            End Call
          </Button>
        </div>
      )}
    </div>
  );
}
