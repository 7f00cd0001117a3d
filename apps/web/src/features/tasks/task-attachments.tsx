import type { TaskDetail } from '@cohort/shared/tasks';
import { Download, Paperclip, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { makeThumbnail, uploadFile } from '../../components/composer/upload.ts';
import { toast } from '../../lib/toast.ts';
import { boardApi } from './boards.queries.ts';
import { errorText } from './task-error-text.ts';
import { useTaskMutation } from './tasks.queries.ts';

const isImage = (type: string) => type.startsWith('image/');

/**
 * A card's files: thumbnails for images, a download link for the rest. Editors upload (POST /api/files
 * with the task's id, then POST /api/tasks/{id}/attachments) and remove them.
 */
export function TaskAttachments({ task, canEdit }: { task: TaskDetail; canEdit: boolean }) {
  const [uploading, setUploading] = useState(false);
  const inputId = useId();
  const attach = useTaskMutation(task._id, (fileId: string) => boardApi.attach(task._id, fileId));
  const detach = useTaskMutation(task._id, (fileId: string) => boardApi.detach(task._id, fileId));

  async function upload(files: FileList | null) {
    if (!files?.length) return;
    setUploading(true);
    try {
      for (const file of Array.from(files)) {
        const stored = await uploadFile({ taskId: task._id }, file, file.name, {
          thumbnail: await makeThumbnail(file),
        });
        await attach.mutateAsync(stored._id);
      }
    } catch (err) {
      toast.error(`Failed to attach the file: ${errorText(err)}`);
    } finally {
      setUploading(false);
    }
  }

  if (task.attachments.length === 0 && !canEdit) return null;
  return (
    <section aria-label="Attachments">
      <div className="flex items-center justify-between">
        <h3 className="flex items-center gap-1.5 text-sm font-semibold text-slate-900 dark:text-slate-100">
          <Paperclip aria-hidden="true" className="size-4" />
          Attachments
        </h3>
        {canEdit && (
          <label
            htmlFor={inputId}
            className="cursor-pointer rounded px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-slate-100 focus-within:outline-2 dark:text-indigo-300 dark:hover:bg-slate-800"
          >
            {uploading ? 'Uploading...' : 'Attach a file'}
            <input
              id={inputId}
              type="file"
              multiple
              disabled={uploading}
              className="sr-only"
              onChange={(e) => {
                void upload(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
        )}
      </div>
      {task.attachments.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No attachments</p>
      ) : (
        <ul className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
          {task.attachments.map((file) => (
            <li
              key={file._id}
              className="rounded-lg border border-slate-200 p-1.5 text-xs dark:border-slate-700"
            >
              {isImage(file.type) ? (
                <a href={file.url} target="_blank" rel="noreferrer">
                  <img
                    src={file.thumbnailUrl ?? file.url}
                    alt={file.name}
                    loading="lazy"
                    className="h-20 w-full rounded object-cover"
                  />
                </a>
              ) : (
                <a
                  href={file.url}
                  download={file.name}
                  className="flex h-20 flex-col items-center justify-center gap-1 rounded bg-slate-50 text-indigo-700 hover:underline dark:bg-slate-800 dark:text-indigo-300"
                >
                  <Download aria-hidden="true" className="size-5" />
                  Download
                </a>
              )}
              <div className="mt-1 flex items-center gap-1">
                <span className="min-w-0 flex-1 truncate" title={file.name}>
                  {file.name}
                </span>
                {canEdit && (
                  <button
                    type="button"
                    aria-label={`Remove ${file.name}`}
                    disabled={detach.isPending}
                    onClick={() =>
                      detach.mutate(file._id, {
                        onError: (err) => toast.error(`Failed to remove the file: ${errorText(err)}`),
                      })
                    }
                    className="rounded p-1 text-slate-500 hover:text-red-700"
                  >
                    <Trash2 aria-hidden="true" className="size-3.5" />
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
