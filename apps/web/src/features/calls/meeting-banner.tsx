import type { MeetingState } from '@cohort/shared/calls';
import { MESH_EVENTS, MESH_NAMESPACE } from '@cohort/shared/calls.constants';
import { Video } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { openLive } from '../../lib/live.ts';
import { joinMeetingUrl } from './links.ts';
import { emitAck } from './media.ts';

/** Who is in the channel's meeting now, live (`watch-meeting` on `/mesh`; readers of the channel only). */
function useMeeting(channelId: string): MeetingState['participants'] {
  const [participants, setParticipants] = useState<MeetingState['participants']>([]);
  useEffect(() => {
    let live = true;
    const close = openLive(MESH_NAMESPACE, (socket, { meetingState }) => {
      // On every (re)connection: follow the channel again and take the current list.
      socket.on('connect', async () => {
        const ack = (await emitAck(socket, MESH_EVENTS.watchMeeting, { room: channelId })) as {
          ok: boolean;
          meeting?: unknown;
        };
        const meeting = meetingState.optional().safeParse(ack.meeting);
        if (live && ack.ok && meeting.success && meeting.data) setParticipants(meeting.data.participants);
      });
      socket.on(MESH_EVENTS.meeting, (raw: unknown) => {
        const msg = meetingState.safeParse(raw);
        if (live && msg.success && msg.data.room === channelId) setParticipants(msg.data.participants);
      });
      return undefined;
    });
    return () => {
      live = false;
      close();
      setParticipants([]);
    };
  }, [channelId]);
  return participants;
}

/**
 * The channel header's "Meeting in progress": shown while someone is in the channel's meeting,
 * with their names and a one-click Join (the meeting page starts the call at once).
 */
export function MeetingBanner({ workspaceName, channelId }: { workspaceName: string; channelId: string }) {
  const participants = useMeeting(channelId);
  const navigate = useNavigate();
  if (participants.length === 0) return null;
  const names = participants.map((p) => p.name).join(', ');
  return (
    <div
      role="status"
      data-testid="meeting-banner"
      className="flex flex-wrap items-center justify-between gap-2 border-b border-emerald-200 bg-emerald-50 px-6 py-2 text-sm"
    >
      <p className="min-w-0 text-emerald-900">
        <span className="font-semibold">Meeting in progress</span>
        <span className="mx-1" aria-hidden="true">
          ·
        </span>
        <span className="break-words">{names}</span>
      </p>
      <Button size="sm" onClick={() => navigate(joinMeetingUrl(workspaceName, channelId))}>
        <Video aria-hidden="true" className="size-4" />
        Join
      </Button>
    </div>
  );
}
