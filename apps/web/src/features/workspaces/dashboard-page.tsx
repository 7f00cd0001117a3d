import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the workspaces capability is built; its engineers replace this file.
export default function DashboardPage() {
  return <ComingSoon title="Your Workspaces" />;
}
