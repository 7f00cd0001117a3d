import { MESSAGE_MAX_LENGTH } from '@cohort/shared/chat.constants';
import type { StoredFile } from '@cohort/shared/files';
import {
  Bold,
  Code,
  Italic,
  Mic,
  Paperclip,
  PenLine,
  SendHorizontal,
  Smile,
  Square,
  Underline,
} from 'lucide-react';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useId,
  useImperativeHandle,
  useState,
} from 'react';
import { cn } from '../../lib/cn.ts';
import { AnnotateDialog } from '../composer/annotate-dialog.tsx';
import { ComposerFileList } from '../composer/composer-file-list.tsx';
import { EmojiPicker } from '../composer/emoji-picker.tsx';
import { insertCode, insertText } from '../composer/format.ts';
import { MentionList } from '../composer/mention-list.tsx';
import type { MentionCandidate } from '../composer/mentions.ts';
import type { UploadTarget } from '../composer/upload.ts';
import { type ComposerFile, useComposerFiles } from '../composer/use-composer-files.ts';
import { useComposerMentions } from '../composer/use-composer-mentions.ts';
import { shortcutFormat, useComposerText } from '../composer/use-composer-text.ts';
import { useVoiceNote } from '../composer/use-voice-note.ts';
import { formatDuration } from './attachments.tsx';
import { Button } from './button.tsx';

interface ChatComposerProps {
  /** The input's accessible name (the placeholder is not a label). */
  label: string;
  /**
   * Receives the text as typed and the files: `attachments` are the uploaded ones (chat), `files`
   * every file with its bytes (for a composer without a conversation, which keeps them locally).
   */
  onSend: (text: string, attachments: StoredFile[], files: ComposerFile[]) => void;
  /** Every change of the text (typing announcements). */
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
  /**
   * Up-arrow in an empty composer (no text, no files, no popup open): edit my last message. Returns
   * whether it started an edit (then the key does nothing else); `composer` is where focus returns.
   */
  onEditLast?: ((composer: HTMLTextAreaElement) => boolean) | undefined;
}

const toolClasses =
  'inline-flex size-8 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white ' +
  'focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 ' +
  'aria-pressed:bg-indigo-100 aria-pressed:text-indigo-800';

/**
 * The message composer used on /canvas, in channels and in direct chat (SPEC §2): a toolbar (Bold,
 * Italic, Underline, Emojis, Voice Note, Attach Document, Insert Code, Annotate) over a text box with
 * a Send button. Enter sends, Shift+Enter starts a new line; Ctrl/Cmd+B, I and U format the selection
 * as `**bold**`, `*italic*` and `__underline__`. Nothing is sent when there is neither text nor a
 * file; files must finish uploading first. The box clears after sending and keeps the focus.
 * `@` suggests members (picked ones read `@Name`, sent as mention markup) and `:smi` suggests emojis.
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
  onEditLast,
}: ChatComposerProps) {
  const id = useId();
  const listId = `${id}-mentions`;
  const [emojiOpen, setEmojiOpen] = useState(false);
  const { draft, input, setText, apply, format } = useComposerText(onInput);
  const mentions = useComposerMentions({
    draft,
    candidates: mentionCandidates,
    withChannel: mentionChannel,
    disabled,
    apply,
  });
  const attachments = useComposerFiles(uploadTarget);
  const { files } = attachments;
  const recorder = useVoiceNote(
    (audio, name, durationMs) => void attachments.addFile(audio, name, durationMs),
  );
  useImperativeHandle(textareaRef, () => input.current as HTMLTextAreaElement, [input]);
  const fileTools = uploadTarget !== null || keepFilesLocally;

  const canSend =
    !disabled &&
    !attachments.uploading &&
    recorder.state === 'idle' &&
    (draft.trim() !== '' || (!requireText && attachments.usable.length > 0));

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const { usable } = attachments;
    onSend(
      mentions.expand(draft),
      usable.flatMap((f) => (f.stored ? [f.stored] : [])),
      usable,
    );
    setText('');
    mentions.reset();
    attachments.clear();
    setEmojiOpen(false);
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentions.onKeyDown(event)) return;
    if (
      event.key === 'ArrowUp' &&
      onEditLast &&
      !event.shiftKey &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.nativeEvent.isComposing &&
      draft === '' &&
      files.length === 0 &&
      !emojiOpen &&
      !mentions.suggesting &&
      recorder.state === 'idle' &&
      onEditLast(event.currentTarget)
    ) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
      return;
    }
    const kind = shortcutFormat(event);
    if (kind) {
      event.preventDefault();
      format(kind);
    }
  };

  const recording = recorder.state === 'recording';

  return (
    <form
      onSubmit={submit}
      className="shrink-0 border-t border-slate-200 px-4 py-2 sm:px-6 dark:border-slate-800"
    >
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
            onClick={() => attachments.documentInput.current?.click()}
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
            onClick={attachments.annotate}
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
          ref={attachments.documentInput}
          type="file"
          multiple
          hidden
          onChange={attachments.onChooseDocuments}
          aria-label="Choose files"
        />
        <input
          ref={attachments.imageInput}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          onChange={attachments.onChooseImage}
          aria-label="Choose an image to annotate"
        />
      </div>

      {files.length > 0 && <ComposerFileList files={files} onRemove={attachments.removeFile} />}

      {children}
      {mentions.suggesting && (
        <MentionList
          id={listId}
          kind={mentions.kind}
          options={mentions.options}
          highlighted={mentions.highlighted}
          onPick={mentions.pick}
        />
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
            mentions.onChange(event.target.selectionStart);
          }}
          onSelect={(event) => mentions.onSelect(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          // The box stays a textbox (every chat view and test finds it so); while suggesting, it
          // controls the listbox and points at the highlighted option, as a combobox would.
          aria-autocomplete="list"
          aria-controls={mentions.suggesting ? listId : undefined}
          aria-activedescendant={mentions.suggesting ? `${listId}-${mentions.highlighted}` : undefined}
          placeholder="Type a message..."
          maxLength={MESSAGE_MAX_LENGTH}
          autoComplete="off"
          disabled={disabled}
          className="block w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none disabled:bg-slate-100 sm:text-sm dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:placeholder:text-slate-400 dark:disabled:bg-slate-900"
        />
        <Button type="submit" disabled={disabled} aria-disabled={!canSend || undefined}>
          <SendHorizontal aria-hidden="true" className="size-4" />
          Send
        </Button>
      </div>
      {attachments.annotating && (
        <AnnotateDialog
          image={attachments.annotating.blob}
          onClose={attachments.cancelAnnotating}
          onDone={attachments.finishAnnotating}
        />
      )}
    </form>
  );
}
