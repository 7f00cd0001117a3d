import { displayName } from '@cohort/shared/names';
import type { TaskDetail } from '@cohort/shared/tasks';
import { type KeyboardEvent, useId, useState } from 'react';
import type { MentionCandidate } from '../../components/composer/mentions.ts';
import { Markdown } from '../../components/markdown/markdown.tsx';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { toast } from '../../lib/toast.ts';
import { errorText } from './task-error-text.ts';
import { taskApi, useTaskMutation } from './tasks.queries.ts';
import { useMentionField } from './use-mention-field.tsx';

/** Comments as Markdown (the chat's renderer); `@Name` in a new one mentions a board member. */
export function Comments({
  task,
  candidates,
}: {
  task: TaskDetail;
  candidates?: readonly MentionCandidate[] | undefined;
}) {
  const add = useTaskMutation(task._id, (text: string) => taskApi.addComment(task._id, text));
  const [text, setText] = useState('');
  const fieldId = useId();
  const mention = useMentionField(text, setText, candidates);
  function send() {
    const value = text.trim();
    if (!value) return;
    add.mutate(mention.expand(value), {
      onSuccess: () => {
        setText('');
        mention.reset();
      },
      onError: (err) => toast.error(`Failed to add comment: ${errorText(err)}`),
    });
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (mention.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  }
  return (
    <section aria-label="Comments">
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Comments</h3>
      <form
        className="mt-2 flex items-start gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor={fieldId} className="sr-only">
          Write a comment
        </label>
        <textarea
          id={fieldId}
          rows={1}
          placeholder="Write a comment..."
          value={text}
          {...mention.textareaProps}
          onKeyDown={onKeyDown}
          className={inputClasses}
        />
        <Button type="submit" size="sm" className="mt-1" disabled={add.isPending}>
          Send
        </Button>
      </form>
      {mention.list}
      <ul className="mt-3 space-y-3">
        {[...task.comments].reverse().map((comment) => (
          <li key={comment._id} className="rounded-lg bg-slate-50 p-2 text-sm dark:bg-slate-800">
            <p className="text-xs text-slate-600 dark:text-slate-400">
              <strong className="text-slate-900 dark:text-slate-100">{displayName(comment.user)}</strong>{' '}
              <time dateTime={comment.time}>{new Date(comment.time).toLocaleString()}</time>
            </p>
            <Markdown source={comment.text} className="mt-1 text-slate-800 dark:text-slate-200" />
          </li>
        ))}
      </ul>
    </section>
  );
}
