import { channelMessage } from '@cohort/shared/chat';
import { formatBytes } from '@cohort/shared/files';
import { useQuery } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { uploadFile } from '../../components/composer/upload.ts';
import type { ComposerFile } from '../../components/composer/use-composer-files.ts';
import { Markdown } from '../../components/markdown/markdown.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ChatComposer } from '../../components/ui/chat-composer.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { channelPath, workspaceQuery, workspacesQuery } from '../workspaces/workspaces.public.ts';

interface KeptMessage {
  id: string;
  text: string;
  files: ComposerFile[];
  at: Date;
  /** Where it was posted, once it was. */
  posted?: { workspaceName: string; channelId: string; channelName: string };
}

/**
 * The Canvas (SPEC §2): the composer on its own. Send keeps a non-blank message here (logged in
 * the console too) and clears the box; "Post to channel…" sends a kept message, with its files, to
 * a channel the user can write to.
 */
export default function CanvasPage() {
  useDocumentTitle('Canvas');
  const [kept, setKept] = useState<KeptMessage[]>([]);
  const [posting, setPosting] = useState<KeptMessage | null>(null);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-4 px-4 py-8">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">Canvas</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          A scratchpad for messages: write and format one here, keep it on this device, and post it to a
          channel when it is ready.
        </p>
      </div>
      <section aria-label="Composer" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <ChatComposer
          label="Message"
          keepFilesLocally
          requireText
          onSend={(text, _uploaded, files) => {
            // The spec's Canvas logs the message locally instead of sending it.
            console.log(text);
            setKept((list) => [
              { id: crypto.randomUUID(), text: text.trim(), files, at: new Date() },
              ...list,
            ]);
          }}
        />
      </section>
      {kept.length > 0 && (
        <section aria-labelledby="kept-heading">
          <h2 id="kept-heading" className="mb-2 text-sm font-semibold text-slate-700">
            Kept on this device
          </h2>
          <ul className="flex flex-col gap-3">
            {kept.map((message) => (
              <li key={message.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                <Markdown source={message.text} className="text-sm text-slate-900" />
                {message.files.length > 0 && (
                  <ul aria-label="Files" className="mt-2 flex flex-wrap gap-1.5 text-xs text-slate-700">
                    {message.files.map((f) => (
                      <li key={f.id} className="rounded-full border border-slate-300 px-2 py-0.5">
                        {f.name} · {formatBytes(f.blob.size)}
                      </li>
                    ))}
                  </ul>
                )}
                <div className="mt-3 flex items-center justify-between gap-2 text-xs text-slate-600">
                  <time dateTime={message.at.toISOString()}>{message.at.toLocaleTimeString()}</time>
                  {message.posted ? (
                    <Link
                      className="font-semibold text-indigo-700 hover:underline"
                      to={channelPath(message.posted.workspaceName, message.posted.channelId)}
                    >
                      Posted to #{message.posted.channelName}
                    </Link>
                  ) : (
                    <Button size="sm" variant="secondary" onClick={() => setPosting(message)}>
                      <Send aria-hidden="true" className="size-4" />
                      Post to channel…
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      {posting && (
        <PostToChannelDialog
          message={posting}
          onClose={() => setPosting(null)}
          onPosted={(posted) => {
            setKept((list) => list.map((m) => (m.id === posting.id ? { ...m, posted } : m)));
            setPosting(null);
            toast.success(`Posted to #${posted.channelName}`);
          }}
        />
      )}
    </div>
  );
}

function PostToChannelDialog({
  message,
  onClose,
  onPosted,
}: {
  message: KeptMessage;
  onClose: () => void;
  onPosted: (posted: NonNullable<KeptMessage['posted']>) => void;
}) {
  const workspaces = useQuery(workspacesQuery);
  const [workspaceName, setWorkspaceName] = useState('');
  const [channelId, setChannelId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const workspace = useQuery({ ...workspaceQuery(workspaceName), enabled: workspaceName !== '' });
  const channels = workspace.data?.chat.channels ?? [];
  const workspaceId = useId();
  const channelSelectId = useId();

  const post = async () => {
    const channel = channels.find((c) => c._id === channelId);
    if (!channel) return;
    setBusy(true);
    setError(null);
    try {
      const target = { workspaceName, channelId };
      const attachments = [];
      for (const file of message.files) {
        attachments.push(
          (await uploadFile(target, file.blob, file.name, { durationMs: file.durationMs }))._id,
        );
      }
      const path = `/api/workspaces/${encodeURIComponent(workspaceName)}/channels/${encodeURIComponent(channelId)}/messages`;
      // The kept message's id is the idempotency key: posting twice stores it once.
      channelMessage.parse(
        await api.post(path, { clientId: message.id, content: message.text, attachments }),
      );
      onPosted({ workspaceName, channelId, channelName: channel.name });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not post the message');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      onClose={onClose}
      title="Post to channel"
      description="Send this message for real, with its files."
    >
      <div className="flex flex-col gap-3">
        <div>
          <label htmlFor={workspaceId} className="mb-1 block text-sm font-medium text-slate-800">
            Workspace
          </label>
          <select
            id={workspaceId}
            className={inputClasses}
            value={workspaceName}
            onChange={(event) => {
              setWorkspaceName(event.target.value);
              setChannelId('');
            }}
          >
            <option value="">{workspaces.isPending ? 'Loading...' : 'Choose a workspace'}</option>
            {workspaces.data?.map((w) => (
              <option key={w._id} value={w.name}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={channelSelectId} className="mb-1 block text-sm font-medium text-slate-800">
            Channel
          </label>
          <select
            id={channelSelectId}
            className={inputClasses}
            value={channelId}
            disabled={workspaceName === ''}
            onChange={(event) => setChannelId(event.target.value)}
          >
            <option value="">{workspace.isFetching ? 'Loading...' : 'Choose a channel'}</option>
            {channels.map((c) => (
              <option key={c._id} value={c._id}>
                #{c.name}
              </option>
            ))}
          </select>
        </div>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={channelId === '' || busy} onClick={() => void post()}>
            {busy ? 'Posting…' : 'Post'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
