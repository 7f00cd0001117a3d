import { ArrowLeft } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { MeshCallView } from './mesh-call-view.tsx';

/**
 * /videocall?room=<channelId>&workspace=<workspaceName> (SPEC §2 "Video screens"): a channel's Video Meeting. The channel's id is the mesh room,
 * so only people who may read the channel get in (the server checks at join and every few seconds).
 */
export default function VideoMeetingPage() {
  useDocumentTitle('Video meeting');
  const [params] = useSearchParams();
  const room = params.get('room');
  const workspace = params.get('workspace');
  const join = params.get('join') === '1';

  if (!room) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Video meeting</h1>
        <p className="mt-3 text-slate-700">Open a channel and choose Video Meeting to start its meeting.</p>
        <Link to="/dashboard" className="mt-6 inline-block font-semibold text-indigo-700 underline">
          Your workspaces
        </Link>
      </div>
    );
  }

  return (
    <MeshCallView room={room} heading="Video meeting" autoStart={join}>
      {workspace && (
        <Link
          to={`/workspace/${encodeURIComponent(workspace)}/channel/${encodeURIComponent(room)}`}
          className="mt-2 inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to the channel in {workspace}
        </Link>
      )}
    </MeshCallView>
  );
}
