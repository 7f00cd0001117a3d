import { ComingSoon } from '../../components/ui/coming-soon.tsx';

// Placeholder until the direct chat capability is built; its engineers replace this file.
export default function LiveChatPage() {
  return <ComingSoon title="Live chat" />;
}
