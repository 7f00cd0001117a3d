import { Inbox } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { chatWithUrl, PeopleSearch } from '../people/people.public.ts';
import { ConversationList } from './conversation-list.tsx';

/**
 * /messages (the navbar's Messages): my direct conversations, newest first, and a search for anyone I
 * share a workspace with. Both open the conversation on /chat.
 */
export default function MessagesPage() {
  useDocumentTitle('Messages');
  const navigate = useNavigate();
  const open = (email: string) => navigate(chatWithUrl(email));
  return (
    <div className="mx-auto max-w-2xl px-4 py-8 sm:px-6">
      <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
          <Inbox aria-hidden="true" className="size-6 text-indigo-600" />
          Messages
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          Direct messages with the people you share a workspace with.
        </p>
        <div className="mt-6">
          <PeopleSearch label="Start a conversation" onPick={(p) => open(p.email)} />
        </div>
        <ConversationList onOpen={open} />
      </section>
    </div>
  );
}
