import { Phone, PhoneOff } from 'lucide-react';
import { useCallback, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useCallClient } from './call-client.ts';
import { INITIAL } from './use-video-call.ts';

/**
 * Mounted once by the signed-in layout: keeps the tab's `/video` connection open so a 1:1 call
 * rings on every page, with the caller's name, a ringtone (WebAudio), Accept and Decline. Accept
 * continues the call on /video (same connection); /video shows its own incoming panel instead.
 */
export function CallListener({ userId }: { userId: string }) {
  const call = useCallClient(userId);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const subscribe = useCallback((notify: () => void) => call?.subscribe(notify) ?? (() => {}), [call]);
  const view = useSyncExternalStore(subscribe, () => call?.getView() ?? INITIAL);

  if (!call || view.call.phase !== 'incoming' || pathname === '/video') return null;
  const who = view.peerName ?? view.call.peer;
  const accept = () => {
    navigate('/video');
    void call.accept();
  };
  return (
    <Dialog
      role="alertdialog"
      onClose={() => call.reject()}
      title={`Incoming call from ${who}`}
      description={view.peerName ? view.call.peer : undefined}
    >
      <div className="flex justify-end gap-2" data-testid="incoming-call" data-ringing={String(view.ringing)}>
        <Button variant="secondary" onClick={() => call.reject()}>
          <PhoneOff aria-hidden="true" className="size-4" />
          Decline
        </Button>
        <Button onClick={accept} data-autofocus>
          <Phone aria-hidden="true" className="size-4" />
          Accept
        </Button>
      </div>
    </Dialog>
  );
}
