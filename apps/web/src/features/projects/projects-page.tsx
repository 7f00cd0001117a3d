import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the projects capability is built; its engineers replace this file.
export default function ProjectsPage() {
  return <ComingSoon title="Project manager" />;
}
