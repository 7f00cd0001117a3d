import type { MessageReaction } from '@cohort/shared/chat';
import { MESSAGE_MAX_LENGTH } from '@cohort/shared/chat.constants';
import { Bookmark, Link2, ListPlus, MessageSquare, Pencil, Pin, Plus, SmilePlus, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { EmojiPicker } from '../../components/composer/emoji-picker.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { timeLabel } from '../../lib/chat-time.ts';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';

/** The quick reactions the actions menu offers. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '😮', '👀'] as const;

const iconButton =
  'inline-flex size-7 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600';

const failed = (what: string) => (err: unknown) =>
  toast.error(`${what}: ${err instanceof Error ? err.message : 'try again'}`);

interface MessageActionsProps {
  own: boolean;
  /** Edit is the sender's; delete the sender's or a workspace admin's. */
  canEdit: boolean;
  canDelete: boolean;
  onReact: (emoji: string) => void;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  /** Absent where there are no threads (direct messages, replies themselves). */
  onReply?: () => void;
  /** "Create task from message" (channel messages). */
  onCreateTask?: (() => void) | undefined;
  /** The message's address, for "Copy link to message" (channel messages). */
  link?: string | undefined;
  /** "Pin to channel" / "Unpin from channel": absent where the reader may not pin (or in DMs). */
  pinned?: boolean;
  onTogglePin?: (() => void) | undefined;
  /** "Save for later" / "Remove from saved": the reader's own list. */
  saved?: boolean;
  onToggleSave?: (() => void) | undefined;
}

/**
 * Puts `link` on the clipboard and says so; where the clipboard cannot be written (no permission, an
 * insecure origin), `fallback` shows the link to copy by hand.
 */
export async function copyLink(link: string, fallback: (link: string) => void): Promise<void> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(link);
    toast.success('Link copied');
  } catch {
    fallback(link);
  }
}

/**
 * A message's actions (react, reply in thread, edit, delete): a small toolbar that shows on hover and
 * whenever focus is inside the message, so keyboard users reach it too.
 */
export function MessageActions({
  canEdit,
  canDelete,
  onReact,
  onEdit,
  onDelete,
  onReply,
  onCreateTask,
  link,
  pinned = false,
  onTogglePin,
  saved = false,
  onToggleSave,
}: MessageActionsProps) {
  const [picking, setPicking] = useState(false);
  const [shownLink, setShownLink] = useState<string | null>(null);
  const linkFieldId = useId();
  // The full emoji picker (any emoji, not only the quick ones), in a dialog of its own.
  const [choosing, setChoosing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <div
      role="toolbar"
      aria-label="Message actions"
      className={cn(
        // On the right for everyone's messages: on the left it covered the sender's name (which opens
        // their profile card).
        'absolute -top-3 right-2 z-10 flex items-center gap-0.5 rounded-lg border border-slate-200 bg-white p-0.5 shadow-sm dark:border-slate-700 dark:bg-slate-800',
        picking ? 'flex' : 'hidden group-focus-within:flex group-hover:flex',
      )}
    >
      {picking ? (
        <>
          {QUICK_REACTIONS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              className={iconButton}
              aria-label={`React with ${emoji}`}
              onClick={() => {
                setPicking(false);
                onReact(emoji);
              }}
            >
              {emoji}
            </button>
          ))}
          <button
            type="button"
            className={iconButton}
            aria-label="More emojis"
            title="More emojis"
            onClick={() => {
              setPicking(false);
              setChoosing(true);
            }}
          >
            <Plus aria-hidden="true" className="size-4" />
          </button>
          <button
            type="button"
            className={cn(iconButton, 'w-auto px-1.5 text-xs')}
            onClick={() => setPicking(false)}
          >
            Close
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            className={iconButton}
            aria-label="Add reaction"
            onClick={() => setPicking(true)}
          >
            <SmilePlus aria-hidden="true" className="size-4" />
          </button>
          {onReply && (
            <button type="button" className={iconButton} aria-label="Reply in thread" onClick={onReply}>
              <MessageSquare aria-hidden="true" className="size-4" />
            </button>
          )}
          {onCreateTask && (
            <button
              type="button"
              className={iconButton}
              aria-label="Create task from message"
              title="Create task from message"
              onClick={onCreateTask}
            >
              <ListPlus aria-hidden="true" className="size-4" />
            </button>
          )}
          {onToggleSave && (
            <button
              type="button"
              className={iconButton}
              aria-label={saved ? 'Remove from saved' : 'Save for later'}
              title={saved ? 'Remove from saved' : 'Save for later'}
              aria-pressed={saved}
              onClick={onToggleSave}
            >
              <Bookmark
                aria-hidden="true"
                className={cn('size-4', saved && 'fill-current text-indigo-700')}
              />
            </button>
          )}
          {onTogglePin && (
            <button
              type="button"
              className={iconButton}
              aria-label={pinned ? 'Unpin from channel' : 'Pin to channel'}
              title={pinned ? 'Unpin from channel' : 'Pin to channel'}
              aria-pressed={pinned}
              onClick={onTogglePin}
            >
              <Pin aria-hidden="true" className={cn('size-4', pinned && 'fill-current text-amber-600')} />
            </button>
          )}
          {link && (
            <button
              type="button"
              className={iconButton}
              aria-label="Copy link to message"
              title="Copy link to message"
              onClick={() => void copyLink(link, setShownLink)}
            >
              <Link2 aria-hidden="true" className="size-4" />
            </button>
          )}
          {canEdit && (
            <button type="button" className={iconButton} aria-label="Edit message" onClick={onEdit}>
              <Pencil aria-hidden="true" className="size-4" />
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              className={cn(iconButton, 'hover:text-red-700')}
              aria-label="Delete message"
              onClick={() => setConfirming(true)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </button>
          )}
        </>
      )}
      {choosing && (
        <Dialog onClose={() => setChoosing(false)} title="Add reaction" className="max-w-sm">
          <div className="mt-3">
            <EmojiPicker
              embedded
              onClose={() => setChoosing(false)}
              onPick={(emoji) => {
                setChoosing(false);
                onReact(emoji);
              }}
            />
          </div>
        </Dialog>
      )}
      {shownLink && (
        <Dialog
          onClose={() => setShownLink(null)}
          title="Link to message"
          description="The link could not be copied for you: copy it from here."
        >
          <div className="mt-4 flex flex-col gap-3">
            <label className="sr-only" htmlFor={linkFieldId}>
              Link to message
            </label>
            <input
              id={linkFieldId}
              data-autofocus
              readOnly
              value={shownLink}
              onFocus={(e) => e.currentTarget.select()}
              className={cn(inputClasses, 'text-slate-900')}
            />
            <div className="flex justify-end">
              <Button variant="secondary" onClick={() => setShownLink(null)}>
                Close
              </Button>
            </div>
          </div>
        </Dialog>
      )}
      {confirming && (
        <Dialog
          role="alertdialog"
          onClose={() => setConfirming(false)}
          title="Delete message?"
          description="Everyone in the conversation will see “message deleted” in its place."
        >
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              data-autofocus
              onClick={() => {
                setConfirming(false);
                onDelete().catch(failed('The message could not be deleted'));
              }}
            >
              Delete
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

/** Each emoji with its count; pressed when the reader reacted; hover (title) names who did. */
export function ReactionsRow({
  reactions,
  myId,
  onToggle,
}: {
  reactions: MessageReaction[];
  myId: string;
  onToggle: (emoji: string, on: boolean) => void;
}) {
  if (reactions.length === 0) return null;
  return (
    <ul aria-label="Reactions" className="mt-1 flex flex-wrap gap-1 px-1">
      {reactions.map((r) => {
        const mine = r.users.some((u) => u._id === myId);
        const who = `${r.users.map((u) => u.name).join(', ')} reacted with ${r.emoji}`;
        return (
          <li key={r.emoji}>
            <button
              type="button"
              title={who}
              aria-label={`${r.emoji} ${r.count}: ${who}`}
              aria-pressed={mine}
              onClick={() => onToggle(r.emoji, !mine)}
              className={cn(
                'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs tabular-nums',
                mine
                  ? 'border-indigo-300 bg-indigo-50 text-indigo-900'
                  : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50',
              )}
            >
              <span aria-hidden="true">{r.emoji}</span>
              <span aria-hidden="true">{r.count}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** "3 replies · last reply 10:42": opens the thread. */
export function ThreadSummary({
  count,
  lastReplyAt,
  onOpen,
}: {
  count: number;
  lastReplyAt: string | null;
  onOpen: () => void;
}) {
  if (count === 0) return null;
  return (
    <button
      type="button"
      onClick={onOpen}
      className="mt-1 px-1 text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {count === 1 ? '1 reply' : `${count} replies`}
      {lastReplyAt && (
        <span className="font-normal text-slate-500"> · last reply {timeLabel(new Date(lastReplyAt))}</span>
      )}
    </button>
  );
}

/** "Pinned by Ada" under a pinned message. */
export function PinnedMarker({ by }: { by: string }) {
  return (
    <p className="mt-1 flex items-center gap-1 px-1 text-xs font-medium text-amber-800 dark:text-amber-300">
      <Pin aria-hidden="true" className="size-3" />
      Pinned by {by}
    </p>
  );
}

export const DELETED_TEXT = 'message deleted';

export function DeletedBody() {
  return <p className="text-slate-500 italic">{DELETED_TEXT}</p>;
}

export function EditedMarker({ editedAt }: { editedAt: string }) {
  return (
    <span className="text-slate-500" title={`Edited ${new Date(editedAt).toLocaleString()}`}>
      (edited)
    </span>
  );
}

/** In-place editing: Enter or Save stores, Escape or Cancel leaves it as it was. */
export function EditForm({
  initial,
  onSave,
  onDone,
}: {
  initial: string;
  onSave: (content: string) => Promise<unknown>;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  // The caret goes after the text, where one goes on typing.
  useEffect(() => {
    const el = field.current;
    if (el) el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const save = () => {
    const text = draft.trim();
    if (!text || saving) return;
    if (text === initial.trim()) return onDone();
    setSaving(true);
    onSave(text)
      .then(onDone)
      .catch(failed('The message could not be edited'))
      .finally(() => setSaving(false));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Not also closing a dialog or panel around the message.
      event.stopPropagation();
      onDone();
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      save();
    }
  };
  return (
    <div className="flex min-w-64 flex-col gap-2">
      <label htmlFor={id} className="sr-only">
        Edit message
      </label>
      <textarea
        id={id}
        ref={field}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this message.
        autoFocus
        value={draft}
        maxLength={MESSAGE_MAX_LENGTH}
        rows={Math.min(6, draft.split('\n').length + 1)}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        className={cn(inputClasses, 'text-slate-900')}
      />
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button size="sm" onClick={save} disabled={saving || !draft.trim()}>
          Save
        </Button>
      </div>
    </div>
  );
}

export const reactFailed = failed('The reaction could not be saved');
