import { VIDEO_NAMESPACE } from '@cohort/shared/calls';
import { useEffect, useState } from 'react';
import { connectNamespace } from '../../lib/socket.ts';
import { VideoCall } from './use-video-call.ts';

/**
 * The tab's one `/video` connection while signed in: the signed-in layout opens it (CallListener),
 * so a call rings on every page, and /video uses the same one, so a call accepted from the
 * incoming-call dialog continues there.
 */
let shared: { userId: string; call: VideoCall } | null = null;

export const currentCallClient = (): VideoCall | null => shared?.call ?? null;

/** Opens the tab's call connection for this user while mounted (one listener mount per tab). */
export function useCallClient(userId: string): VideoCall | null {
  const [call, setCall] = useState<VideoCall | null>(null);
  useEffect(() => {
    if (shared && shared.userId !== userId) {
      shared.call.dispose();
      shared = null;
    }
    const mine = shared ?? { userId, call: new VideoCall(connectNamespace(VIDEO_NAMESPACE)) };
    shared = mine;
    setCall(mine.call);
    return () => {
      if (shared === mine) shared = null;
      mine.call.dispose();
      setCall(null);
    };
  }, [userId]);
  return call;
}
