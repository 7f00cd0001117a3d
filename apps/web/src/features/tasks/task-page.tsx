import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the tasks capability is built; its engineers replace this file.
export default function TaskPage() {
  return <ComingSoon title="Task" />;
}
