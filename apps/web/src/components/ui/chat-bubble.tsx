import type { StoredFile } from '@cohort/shared/files';
import { Clock, RotateCcw, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { timeLabel } from '../../lib/chat-time.ts';
import { cn } from '../../lib/cn.ts';
import { PlainTextFallback } from '../markdown/plain-text-fallback.tsx';
import { MessageBody } from './message-body.tsx';
import { PersonName } from './person-name.tsx';

export interface PendingState {
  status: 'sending' | 'failed';
  error?: string;
  onRetry: () => void;
  onDiscard: () => void;
}

interface ChatBubbleProps {
  /** Own messages sit on the right in the brand colour; others' on the left in grey. */
  own: boolean;
  content: string;
  /** Files the message carries (previews under the text). */
  attachments?: StoredFile[];
  date: Date;
  /** Shown above the bubble for others' messages that start a run; read out otherwise. */
  name?: string;
  /** The sender's e-mail: the shown name then opens their card (PersonName). */
  senderEmail?: string;
  showName?: boolean;
  /** The message is still in the outbox: sending, or failed with Retry and Discard. */
  pending?: PendingState;
  /** First of a run of messages: a little more space above it. */
  spaced?: boolean;
  /** Replaces the content (a deleted message's placeholder, the edit form). */
  body?: ReactNode;
  /** Next to the time (the "edited" marker). */
  meta?: ReactNode;
  /**
   * Message actions, shown on hover and focus: rendered once the pointer or focus first comes into the
   * message (hidden until then anyway), so a conversation's first render skips a toolbar per message.
   */
  actions?: ReactNode;
  /** Under the bubble (reactions, thread summary). */
  below?: ReactNode;
  /** The element id (search results scroll to it) and a highlight while it is the target. */
  id?: string;
  highlighted?: boolean;
}

const linkButton =
  'inline-flex items-center gap-1 rounded font-semibold hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/** One chat message (channel or direct): content, hour:minute time and, while unsent, its status. */
export function ChatBubble({
  own,
  content,
  attachments,
  date,
  name,
  senderEmail,
  showName,
  pending,
  spaced,
  body,
  meta,
  actions,
  below,
  id,
  highlighted,
}: ChatBubbleProps) {
  const failed = pending?.status === 'failed';
  // A toolbar per message was half the page's elements on a phone's first render (issue 19).
  const [engaged, setEngaged] = useState(false);
  const engage = actions && !engaged ? () => setEngaged(true) : undefined;
  return (
    <li
      id={id}
      onPointerEnter={engage}
      onFocus={engage}
      aria-current={highlighted ? 'true' : undefined}
      className={cn(
        'group relative flex flex-col',
        own ? 'items-end' : 'items-start',
        spaced && 'pt-2',
        highlighted && 'rounded-lg bg-amber-100 ring-2 ring-amber-300',
      )}
    >
      {!own && name && showName ? (
        <p className="mb-0.5 px-1 text-xs font-semibold text-slate-800">
          {senderEmail ? (
            <PersonName email={senderEmail} name={name}>
              {name}
            </PersonName>
          ) : (
            name
          )}
        </p>
      ) : (
        <span className="sr-only">{own ? 'You' : (name ?? '')}</span>
      )}
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2 text-sm sm:max-w-[75%]',
          own ? 'rounded-tr-md' : 'rounded-tl-md bg-slate-100 text-slate-900',
          own && !pending && 'bg-indigo-600 text-white',
          own && pending && 'border border-dashed',
          pending && !failed && 'border-indigo-300 bg-indigo-50 text-indigo-950',
          failed && 'border-red-300 bg-red-50 text-red-950',
        )}
      >
        {/* One message that fails to render shows as plain text; the conversation stays. */}
        <PlainTextFallback text={content}>
          {body ?? <MessageBody content={content} attachments={attachments} own={own && !pending} />}
        </PlainTextFallback>
      </div>
      {below}
      {engaged && actions}
      <span className="flex flex-wrap items-center justify-end gap-x-2 px-1 text-[11px]">
        {pending &&
          (failed ? (
            <>
              <span className="font-medium text-red-700">
                Not sent{pending.error ? `: ${pending.error}` : ''}
              </span>
              <button type="button" onClick={pending.onRetry} className={cn(linkButton, 'text-indigo-700')}>
                <RotateCcw aria-hidden="true" className="size-3" />
                Retry
              </button>
              <button type="button" onClick={pending.onDiscard} className={cn(linkButton, 'text-slate-600')}>
                <Trash2 aria-hidden="true" className="size-3" />
                Discard
              </button>
            </>
          ) : (
            <span className="inline-flex items-center gap-1 text-slate-600">
              <Clock aria-hidden="true" className="size-3" />
              Sending…
            </span>
          ))}
        {meta}
        <time dateTime={date.toISOString()} className="text-slate-500 tabular-nums">
          {timeLabel(date)}
        </time>
      </span>
    </li>
  );
}
