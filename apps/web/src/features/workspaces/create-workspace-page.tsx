import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the workspaces capability is built; its engineers replace this file.
export default function CreateWorkspacePage() {
  return <ComingSoon title="Create workspace" />;
}
