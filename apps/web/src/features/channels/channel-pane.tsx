import type { Channel } from '@cohort/shared/workspaces';
import { Lock, MessagesSquare } from 'lucide-react';

interface ChannelPaneProps {
  workspaceName: string;
  channel: Channel;
}

/**
 * The selected channel in the workspace page's main area. A placeholder until real-time chat lands:
 * the chat engineers replace the body (messages, typing, composer, summary) and keep these props.
 */
export function ChannelPane({ workspaceName, channel }: ChannelPaneProps) {
  return (
    <section aria-labelledby="channel-pane-heading" className="flex h-full flex-col">
      <header className="border-b border-slate-200 px-6 py-4">
        <h2
          id="channel-pane-heading"
          className="flex items-center gap-2 text-xl font-semibold text-slate-900"
        >
          <span className="break-words">{channel.name} Chat</span>
          {channel.private && (
            <>
              <Lock aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
              <span className="sr-only">(private)</span>
            </>
          )}
        </h2>
        <p className="mt-1 text-sm break-words text-slate-600">{channel.description}</p>
      </header>
      <div className="flex flex-1 flex-col items-center justify-center px-6 py-16 text-center">
        <MessagesSquare aria-hidden="true" className="size-10 text-indigo-300" />
        <p className="mt-4 text-slate-600">Messages in this channel of {workspaceName} will appear here.</p>
      </div>
    </section>
  );
}
