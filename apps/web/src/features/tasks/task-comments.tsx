import { displayName } from '@cohort/shared/names';
import type { TaskDetail } from '@cohort/shared/tasks';
import { type KeyboardEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { errorText } from './task-error-text.ts';
import { taskApi, useTaskMutation } from './tasks.queries.ts';

export function Comments({ task }: { task: TaskDetail }) {
  const add = useTaskMutation(task._id, (text: string) => taskApi.addComment(task._id, text));
  const [text, setText] = useState('');
  const fieldId = useId();
  function send() {
    const value = text.trim();
    if (!value) return;
    add.mutate(value, {
      onSuccess: () => setText(''),
      onError: (err) => toast.error(`Failed to add comment: ${errorText(err)}`),
    });
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
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
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className={inputClasses}
        />
        <Button type="submit" size="sm" className="mt-1" disabled={add.isPending}>
          Send
        </Button>
      </form>
      <ul className="mt-3 space-y-3">
        {[...task.comments].reverse().map((comment) => (
          <li key={comment._id} className="rounded-lg bg-slate-50 p-2 text-sm dark:bg-slate-800">
            <p className="text-xs text-slate-600 dark:text-slate-400">
              <strong className="text-slate-900 dark:text-slate-100">{displayName(comment.user)}</strong>{' '}
              <time dateTime={comment.time}>{new Date(comment.time).toLocaleString()}</time>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">
              {comment.text}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
