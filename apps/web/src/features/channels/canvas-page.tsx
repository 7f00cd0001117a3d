import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the channels capability is built; its engineers replace this file.
export default function CanvasPage() {
  return <ComingSoon title="Canvas" />;
}
