import { displayName } from '@cohort/shared/names';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Mic, MicOff, MonitorUp, Phone, PhoneOff, Video, VideoOff } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { connectionMessage, useConnectionState } from '../../lib/socket-state.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { membersQuery, workspacesQuery } from '../workspaces/workspaces.public.ts';
import { CallNotice } from './call-notice.tsx';
import { useVideoCall, type VideoCall } from './use-video-call.ts';
import { VideoTile } from './video-tile.tsx';

const PHASE_TEXT = {
  idle: null,
  calling: 'Calling',
  incoming: null,
  'in-call': 'In call with',
} as const;

/** People one shares a workspace with (the first few workspaces), to call with one click. */
function PeopleToCall({ me, onCall }: { me: string; onCall: (email: string) => void }) {
  const workspaces = useQuery(workspacesQuery);
  const lists = useQueries({
    queries: (workspaces.data ?? []).slice(0, 5).map((w) => membersQuery(w.name)),
  });
  const people = new Map<string, string>();
  for (const list of lists) {
    for (const m of list.data ?? []) {
      if (m.status !== 'active' || m.email.toLowerCase() === me.toLowerCase()) continue;
      people.set(m.email, displayName(m));
    }
  }
  if (people.size === 0) return null;
  return (
    <div className="mt-4">
      <h3 className="text-sm font-semibold text-slate-800">People you can call</h3>
      <ul className="mt-2 flex flex-wrap gap-2">
        {[...people].slice(0, 12).map(([email, name]) => (
          <li key={email}>
            <Button variant="secondary" size="sm" title={email} onClick={() => onCall(email)}>
              <Phone aria-hidden="true" className="size-4" />
              Call {name}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** `/video?call=<email>` (a profile card's or a DM header's Call): preselect them and call once. */
function useCallParam(call: VideoCall | null, setCallee: (email: string) => void) {
  const [params, setParams] = useSearchParams();
  const target = params.get('call');
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (!call || !target || started.current === target) return;
    started.current = target;
    setCallee(target);
    // The parameter is consumed: a reload does not ring them again.
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('call');
        return next;
      },
      { replace: true },
    );
    if (call.getView().call.phase === 'idle') void call.call(target);
  }, [call, target, setCallee, setParams]);
}

/**
 * /video (SPEC §2 "Video call by e-mail"): Your ID, the callee's e-mail and Call, the incoming-call
 * panel, the Local/Remote grid and the in-call controls. It uses the tab's call connection (opened
 * by the signed-in layout, so calls ring on every page); idle, it says so and offers people to call.
 */
export default function VideoPage() {
  useDocumentTitle('Video call');
  const me = useMe();
  const { call, view } = useVideoCall();
  const [callee, setCallee] = useState('');
  useCallParam(call, setCallee);
  // Calls ring only while the `/video` connection is up.
  const signalling = useConnectionState(call?.socket ?? null);
  const offline = connectionMessage(signalling);
  const { phase } = view.call;
  const inCall = view.call.phase === 'in-call' ? view.call : null;
  const peer = view.call.phase === 'idle' ? null : view.call.peer;

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
            Incoming call from {view.peerName ?? view.call.peer}
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

      {phase === 'idle' ? (
        <section
          aria-labelledby="idle-heading"
          className="mt-6 rounded-xl border border-slate-200 bg-white px-5 py-6"
          data-testid="video-idle"
        >
          <h2 id="idle-heading" className="font-semibold text-slate-900">
            No call in progress
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Enter the e-mail of someone you share a workspace with, or pick a person below. Calls to you ring
            on every Cohort page while you are signed in.
          </p>
          {me.data && (
            <PeopleToCall
              me={me.data.email}
              onCall={(email) => {
                setCallee(email);
                void call?.call(email);
              }}
            />
          )}
        </section>
      ) : (
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
      )}

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
