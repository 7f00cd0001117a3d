import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the tasks capability is built; its engineers replace this file.
export default function TaskboardPage() {
  return <ComingSoon title="Taskboard" />;
}
