import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the calls capability is built; its engineers replace this file.
export default function VideoMeetingPage() {
  return <ComingSoon title="Video meeting" />;
}
