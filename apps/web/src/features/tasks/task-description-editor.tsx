import type { TaskDetail } from '@cohort/shared/tasks';
import { useId, useState } from 'react';
import type { MentionCandidate } from '../../components/composer/mentions.ts';
import { Markdown } from '../../components/markdown/markdown.tsx';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { errorText } from './task-error-text.ts';
import { taskApi, useTaskMutation } from './tasks.queries.ts';
import { useMentionField } from './use-mention-field.tsx';

/** The description as Markdown; editors edit it, with @mention completion among the board's members. */
export function DescriptionEditor({
  task,
  canEdit = true,
  candidates,
}: {
  task: TaskDetail;
  canEdit?: boolean;
  candidates?: readonly MentionCandidate[] | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(task.description);
  const save = useTaskMutation(task._id, (description: string) =>
    taskApi.updateDescription(task._id, description),
  );
  const fieldId = useId();
  const mention = useMentionField(draft, setDraft, candidates);

  return (
    <section aria-label="Description">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Description</h3>
        {!editing && canEdit && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setDraft(task.description);
              setEditing(true);
            }}
          >
            Edit description
          </Button>
        )}
      </div>
      {editing ? (
        <form
          className="mt-2 space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(mention.expand(draft), {
              onSuccess: () => {
                setEditing(false);
                mention.reset();
              },
              onError: (err) => toast.error(`Failed to update description: ${errorText(err)}`),
            });
          }}
        >
          <label htmlFor={fieldId} className="sr-only">
            Description
          </label>
          <textarea
            id={fieldId}
            value={draft}
            {...mention.textareaProps}
            onKeyDown={mention.onKeyDown}
            className={cn(inputClasses, 'min-h-28')}
          />
          {mention.list}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setDraft(task.description);
                setEditing(false);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          {task.description ? (
            <Markdown source={task.description} />
          ) : (
            <p className="text-slate-500">No description yet.</p>
          )}
        </div>
      )}
    </section>
  );
}
