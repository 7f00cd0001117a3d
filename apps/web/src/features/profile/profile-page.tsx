import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the profile capability is built; its engineers replace this file.
export default function ProfilePage() {
  return <ComingSoon title="Profile" />;
}
