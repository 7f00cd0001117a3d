import { createRoomResponse } from '@cohort/shared/calls';
import { Link2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { MeshCallView } from './mesh-call-view.tsx';

/**
 * /mesh (SPEC §2 "WebRTC Mesh Video Chat"): a call in the room named by `?room=`. Without one, a new
 * ad-hoc room is created (POST /api/calls/rooms) and put in the URL, so the link can be shared.
 */
export default function MeshPage() {
  useDocumentTitle('Mesh video call');
  const [params, setParams] = useSearchParams();
  const room = params.get('room');
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (room) return;
    let cancelled = false;
    api
      .post<unknown>('/api/calls/rooms')
      .then((raw) => {
        if (!cancelled) setParams({ room: createRoomResponse.parse(raw).roomId }, { replace: true });
      })
      .catch((err) => {
        console.error('Could not create a room', err);
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [room, setParams]);

  if (!room) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Mesh video call</h1>
        <p role={failed ? 'alert' : 'status'} className="mt-3 text-slate-700">
          {failed ? 'Could not create a call. Reload the page to try again.' : 'Creating a call…'}
        </p>
      </div>
    );
  }

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      toast.success('Call link copied to clipboard');
    } catch {
      toast.error('Could not copy the link; copy it from the address bar');
    }
  };

  return (
    <MeshCallView room={room} heading="Mesh video call">
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <p>Anyone signed in with this link can join for 24 hours.</p>
        <Button variant="secondary" size="sm" onClick={() => void copyLink()}>
          <Link2 aria-hidden="true" className="size-4" />
          Copy Link
        </Button>
      </div>
    </MeshCallView>
  );
}
