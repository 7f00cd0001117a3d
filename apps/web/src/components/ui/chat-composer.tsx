import { MESSAGE_MAX_LENGTH } from '@cohort/shared/chat';
import { formatBytes, type StoredFile } from '@cohort/shared/files';
import {
  Bold,
  Code,
  Italic,
  Loader2,
  Mic,
  Paperclip,
  PenLine,
  SendHorizontal,
  Smile,
  Square,
  Underline,
  X,
} from 'lucide-react';
import {
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { toast } from 'sonner';
import { api } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { AnnotateDialog } from '../composer/annotate-dialog.tsx';
import { EmojiPicker } from '../composer/emoji-picker.tsx';
import {
  type FormatKind,
  insertCode,
  insertText,
  MARKERS,
  type TextEdit,
  toggleWrap,
} from '../composer/format.ts';
import {
  activeMention,
  insertMention,
  type MentionCandidate,
  type MentionOption,
  matchMentions,
  optionLabel,
} from '../composer/mentions.ts';
import { makeThumbnail, type UploadTarget, uploadFile } from '../composer/upload.ts';
import { useVoiceRecorder } from '../composer/use-voice-recorder.ts';
import { formatDuration } from './attachments.tsx';
import { Button } from './button.tsx';

/** A file chosen, recorded or annotated in the composer. */
export interface ComposerFile {
  id: string;
  name: string;
  blob: Blob;
  durationMs?: number;
  /** `local`: kept in the browser (no conversation yet, /canvas); the others are uploads. */
  status: 'local' | 'uploading' | 'ready' | 'failed';
  stored?: StoredFile;
  error?: string;
}

interface ChatComposerProps {
  /** The input's accessible name (the placeholder is not a label). */
  label: string;
  /**
   * Receives the text as typed and the files: `attachments` are the uploaded ones (chat), `files`
   * every file with its bytes (for a composer without a conversation, which keeps them locally).
   */
  onSend: (text: string, attachments: StoredFile[], files: ComposerFile[]) => void;
  /** Every change of the text (typing announcements, @mention autocomplete). */
  onInput?: (value: string) => void;
  disabled?: boolean;
  /** Where files are uploaded as soon as they are added. Without it there are no file tools… */
  uploadTarget?: UploadTarget | null;
  /** …unless files are to be kept in the browser (/canvas). */
  keepFilesLocally?: boolean;
  /** Send needs text (the Canvas: "Send with a non-blank message"). */
  requireText?: boolean;
  /** The textarea, for features that extend the composer (e.g. mention autocomplete). */
  textareaRef?: Ref<HTMLTextAreaElement>;
  /** Rendered above the input (e.g. an autocomplete list). */
  children?: ReactNode;
  /** Workspace members `@` suggests (the autocomplete is off without them). */
  mentionCandidates?: readonly MentionCandidate[] | undefined;
  /** Whether `@channel` is suggested too (channels: yes). */
  mentionChannel?: boolean;
}

const toolClasses =
  'inline-flex size-8 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 hover:text-slate-900 ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 ' +
  'aria-pressed:bg-indigo-100 aria-pressed:text-indigo-800';

let nextFileId = 0;

/**
 * The message composer used on /canvas, in channels and in direct chat (SPEC §2): a toolbar (Bold,
 * Italic, Underline, Emojis, Voice Note, Attach Document, Insert Code, Annotate) over a text box with
 * a Send button. Enter sends, Shift+Enter starts a new line; Ctrl/Cmd+B, I and U format the selection
 * as `**bold**`, `*italic*` and `__underline__`. Nothing is sent when there is neither text nor a
 * file; files must finish uploading first. The box clears after sending and keeps the focus.
 */
export function ChatComposer({
  label,
  onSend,
  onInput,
  disabled,
  uploadTarget = null,
  keepFilesLocally = false,
  requireText = false,
  textareaRef,
  children,
  mentionCandidates,
  mentionChannel = true,
}: ChatComposerProps) {
  const [draft, setDraft] = useState('');
  const [files, setFiles] = useState<ComposerFile[]>([]);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [annotating, setAnnotating] = useState<ComposerFile | null>(null);
  const id = useId();
  const listId = `${id}-mentions`;
  const input = useRef<HTMLTextAreaElement>(null);
  // @mention autocomplete: the caret, the highlighted option, and an `@` the user dismissed (Escape).
  const [caret, setCaret] = useState(0);
  const [activeOption, setActiveOption] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const mention = mentionCandidates && !disabled ? activeMention(draft, caret) : null;
  const options: MentionOption[] =
    mention && mention.start !== dismissed
      ? matchMentions(mention.query, mentionCandidates ?? [], mentionChannel)
      : [];
  const suggesting = options.length > 0;
  const highlighted = Math.min(activeOption, options.length - 1);
  const documentInput = useRef<HTMLInputElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  useImperativeHandle(textareaRef, () => input.current as HTMLTextAreaElement, []);
  const fileTools = uploadTarget !== null || keepFilesLocally;
  const targetKey = uploadTarget ? JSON.stringify(uploadTarget) : '';

  // Files belong to one conversation: switching conversations starts over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the target changes
  useEffect(() => setFiles([]), [targetKey]);

  const setText = (value: string) => {
    setDraft(value);
    onInput?.(value);
  };

  // The selection an edit asks for is put in place in the same commit as its text, so a selection
  // the user makes right after (a click, a shortcut) is never overwritten a frame later.
  const pendingSelection = useRef<TextEdit | null>(null);
  useLayoutEffect(() => {
    const node = input.current;
    const wanted = pendingSelection.current;
    pendingSelection.current = null;
    if (!node || !wanted || node.value !== wanted.value) return;
    node.focus();
    node.setSelectionRange(wanted.selectionStart, wanted.selectionEnd);
  });

  /** Applies an edit to the text and puts the selection where the edit says, keeping the focus. */
  const apply = (edit: (value: string, start: number, end: number) => TextEdit) => {
    const node = input.current;
    if (!node) return;
    const result = edit(node.value, node.selectionStart, node.selectionEnd);
    if (result.value === node.value) {
      node.focus();
      node.setSelectionRange(result.selectionStart, result.selectionEnd);
      return;
    }
    pendingSelection.current = result;
    setText(result.value);
  };
  const pickMention = (option: MentionOption) => {
    if (!mention) return;
    apply((v) => insertMention(v, mention.start, caret, option));
    setActiveOption(0);
  };
  const format = (kind: FormatKind) => apply((v, s, e) => toggleWrap(v, s, e, MARKERS[kind]));

  const update = (fileId: string, patch: Partial<ComposerFile>) =>
    setFiles((list) => list.map((f) => (f.id === fileId ? { ...f, ...patch } : f)));

  /** Drops a file from the composer; an upload no message carries is deleted on the server too. */
  const removed = useRef(new Set<string>());
  const removeFile = (file: ComposerFile) => {
    removed.current.add(file.id);
    setFiles((list) => list.filter((f) => f.id !== file.id));
    if (file.stored) api.delete(file.stored.url).catch(() => {});
  };

  const addFile = async (blob: Blob, name: string, durationMs?: number, replaces?: ComposerFile) => {
    if (replaces) removeFile(replaces);
    nextFileId += 1;
    const file: ComposerFile = {
      id: `f${nextFileId}`,
      name,
      blob,
      ...(durationMs !== undefined ? { durationMs } : {}),
      status: uploadTarget ? 'uploading' : 'local',
    };
    setFiles((list) => [...list, file]);
    if (!uploadTarget) return;
    try {
      const thumbnail = await makeThumbnail(blob);
      const stored = await uploadFile(uploadTarget, blob, name, { durationMs, thumbnail });
      // Removed while it was uploading: take it back at once.
      if (removed.current.has(file.id)) api.delete(stored.url).catch(() => {});
      else update(file.id, { status: 'ready', stored });
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Upload failed';
      update(file.id, { status: 'failed', error: message });
      toast.error(`${name}: ${message}`);
    }
  };

  const recorder = useVoiceRecorder(
    (audio, durationMs) => {
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
      void addFile(audio, `voice-note-${stamp}.webm`, durationMs);
    },
    (message) => toast.error(message),
  );

  const onChooseDocuments = (event: ChangeEvent<HTMLInputElement>) => {
    for (const file of Array.from(event.target.files ?? [])) void addFile(file, file.name);
    event.target.value = '';
  };

  const onChooseImage = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    nextFileId += 1;
    setAnnotating({ id: `new${nextFileId}`, name: chosen.name, blob: chosen, status: 'local' });
  };

  /** Annotate the newest image already attached, or pick one to annotate. */
  const annotate = () => {
    const image = files.findLast((f) => f.blob.type.startsWith('image/') && f.blob.type !== 'image/svg+xml');
    if (image) setAnnotating(image);
    else imageInput.current?.click();
  };

  const uploading = files.some((f) => f.status === 'uploading');
  const usable = files.filter((f) => f.status === 'ready' || f.status === 'local');
  const canSend =
    !disabled &&
    !uploading &&
    recorder.state === 'idle' &&
    (draft.trim() !== '' || (!requireText && usable.length > 0));

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    onSend(
      draft,
      usable.flatMap((f) => (f.stored ? [f.stored] : [])),
      usable,
    );
    setText('');
    setFiles([]);
    setEmojiOpen(false);
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggesting && mention) {
      const move = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
      if (move) {
        event.preventDefault();
        setActiveOption((highlighted + move + options.length) % options.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault();
        const option = options[highlighted];
        if (option) pickMention(option);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissed(mention.start);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
      return;
    }
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    const kind: FormatKind | undefined =
      key === 'b' ? 'bold' : key === 'i' ? 'italic' : key === 'u' ? 'underline' : undefined;
    if (kind) {
      event.preventDefault();
      format(kind);
    }
  };

  const recording = recorder.state === 'recording';

  return (
    <form onSubmit={submit} className="border-t border-slate-200 px-4 py-2 sm:px-6">
      <div
        role="toolbar"
        aria-label="Formatting and attachments"
        className="relative flex flex-wrap items-center gap-0.5"
      >
        <button
          type="button"
          className={toolClasses}
          aria-label="Bold"
          title="Bold (Ctrl+B)"
          onClick={() => format('bold')}
          disabled={disabled}
        >
          <Bold aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={toolClasses}
          aria-label="Italic"
          title="Italic (Ctrl+I)"
          onClick={() => format('italic')}
          disabled={disabled}
        >
          <Italic aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={toolClasses}
          aria-label="Underline"
          title="Underline (Ctrl+U)"
          onClick={() => format('underline')}
          disabled={disabled}
        >
          <Underline aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={toolClasses}
          aria-label="Emojis"
          title="Emojis"
          aria-expanded={emojiOpen}
          onClick={() => setEmojiOpen((open) => !open)}
          disabled={disabled}
        >
          <Smile aria-hidden="true" className="size-4" />
        </button>
        {fileTools && (
          <button
            type="button"
            className={cn(toolClasses, recording && 'bg-red-100 text-red-700 hover:bg-red-100')}
            aria-label={recording ? 'Stop recording' : 'Voice Note'}
            title={recording ? 'Stop recording' : 'Voice Note'}
            onClick={() => (recording ? recorder.stop() : void recorder.start())}
            disabled={disabled}
          >
            {recording ? (
              <Square aria-hidden="true" className="size-4" />
            ) : (
              <Mic aria-hidden="true" className="size-4" />
            )}
          </button>
        )}
        {fileTools && (
          <button
            type="button"
            className={toolClasses}
            aria-label="Attach Document"
            title="Attach Document"
            onClick={() => documentInput.current?.click()}
            disabled={disabled}
          >
            <Paperclip aria-hidden="true" className="size-4" />
          </button>
        )}
        <button
          type="button"
          className={toolClasses}
          aria-label="Insert Code"
          title="Insert Code"
          onClick={() => apply(insertCode)}
          disabled={disabled}
        >
          <Code aria-hidden="true" className="size-4" />
        </button>
        {fileTools && (
          <button
            type="button"
            className={toolClasses}
            aria-label="Annotate"
            title="Annotate an image"
            onClick={annotate}
            disabled={disabled}
          >
            <PenLine aria-hidden="true" className="size-4" />
          </button>
        )}
        {recording && (
          <span
            role="status"
            className="ml-2 inline-flex items-center gap-1 text-xs font-medium text-red-700"
          >
            <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-red-600" />
            Recording {formatDuration(recorder.elapsedMs)}
          </span>
        )}
        {emojiOpen && (
          <EmojiPicker
            onClose={() => {
              setEmojiOpen(false);
              input.current?.focus();
            }}
            onPick={(emoji) => {
              setEmojiOpen(false);
              apply((v, s, e) => insertText(v, s, e, emoji));
            }}
          />
        )}
        <input
          ref={documentInput}
          type="file"
          multiple
          hidden
          onChange={onChooseDocuments}
          aria-label="Choose files"
        />
        <input
          ref={imageInput}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          onChange={onChooseImage}
          aria-label="Choose an image to annotate"
        />
      </div>

      {files.length > 0 && (
        <ul aria-label="Files to send" className="mt-1 flex flex-wrap gap-1.5">
          {files.map((f) => (
            <li
              key={f.id}
              className={cn(
                'inline-flex max-w-full items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs',
                f.status === 'failed'
                  ? 'border-red-300 bg-red-50 text-red-900'
                  : 'border-slate-300 bg-slate-50 text-slate-800',
              )}
            >
              {f.status === 'uploading' && <Loader2 aria-label="Uploading" className="size-3 animate-spin" />}
              <span className="max-w-48 truncate">{f.name}</span>
              <span className="text-slate-600">
                {f.durationMs !== undefined ? formatDuration(f.durationMs) : formatBytes(f.blob.size)}
                {f.status === 'failed' ? ` · ${f.error ?? 'failed'}` : ''}
              </span>
              <button
                type="button"
                aria-label={`Remove ${f.name}`}
                className="rounded-full p-0.5 hover:bg-slate-200"
                onClick={() => removeFile(f)}
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}

      {children}
      {suggesting && (
        <div
          id={listId}
          role="listbox"
          aria-label="Mention suggestions"
          className="mt-1 max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {options.map((option, index) => (
            <div
              key={option.kind === 'channel' ? '@channel' : option.member.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === highlighted}
              tabIndex={-1}
              className={cn(
                'flex cursor-pointer items-baseline gap-2 px-3 py-1.5',
                index === highlighted ? 'bg-indigo-100 text-indigo-900' : 'text-slate-800',
              )}
              // mousedown, not click: the textarea keeps the focus and the caret.
              onMouseDown={(event) => {
                event.preventDefault();
                pickMention(option);
              }}
            >
              <span className="font-medium">{optionLabel(option)}</span>
              <span className="truncate text-xs text-slate-600">
                {option.kind === 'channel' ? 'Notify everyone in this channel' : option.member.email}
              </span>
            </div>
          ))}
        </div>
      )}
      <div className="mt-1 flex items-end gap-2">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <textarea
          id={id}
          ref={input}
          value={draft}
          rows={Math.min(6, Math.max(1, draft.split('\n').length))}
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart);
            setActiveOption(0);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          // The box stays a textbox (every chat view and test finds it so); while suggesting, it
          // controls the listbox and points at the highlighted option, as a combobox would.
          aria-autocomplete={mentionCandidates ? 'list' : undefined}
          aria-controls={suggesting ? listId : undefined}
          aria-activedescendant={suggesting ? `${listId}-${highlighted}` : undefined}
          placeholder="Type a message..."
          maxLength={MESSAGE_MAX_LENGTH}
          autoComplete="off"
          disabled={disabled}
          className="block w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none disabled:bg-slate-100"
        />
        <Button type="submit" disabled={disabled} aria-disabled={!canSend || undefined}>
          <SendHorizontal aria-hidden="true" className="size-4" />
          Send
        </Button>
      </div>
      {annotating && (
        <AnnotateDialog
          image={annotating.blob}
          onClose={() => setAnnotating(null)}
          onDone={(png) => {
            const base = annotating.name.replace(/\.[^.]+$/, '');
            const replaces = files.find((f) => f.id === annotating.id);
            setAnnotating(null);
            void addFile(png, `${base}-annotated.png`, undefined, replaces);
          }}
        />
      )}
    </form>
  );
}
