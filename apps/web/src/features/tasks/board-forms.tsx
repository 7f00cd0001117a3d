import { BOARD_TITLE_MAX_LENGTH, type BoardDetail, boardRoleCan } from '@cohort/shared/boards';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { toast } from '../../lib/toast.ts';
import { boardPathOf, useBoardAdmin } from './boards.queries.ts';
import { errorText } from './task-error-text.ts';

/** A one-field form (board name) with Save/Cancel; Escape cancels. */
function TitleForm({
  label,
  initial,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (title: string, fail: (message: string) => void) => void;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState(initial);
  const [error, setError] = useState('');
  const id = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    const value = title.trim();
    if (!value) return setError('Board name cannot be empty');
    onSubmit(value, setError);
  }
  return (
    <form onSubmit={submit} aria-label={label} className="mt-1 space-y-2 px-1">
      <label htmlFor={id} className="sr-only">
        Board name
      </label>
      <input
        id={id}
        // biome-ignore lint/a11y/noAutofocus: the user just asked for this form.
        autoFocus
        value={title}
        maxLength={BOARD_TITLE_MAX_LENGTH}
        placeholder="Board name"
        onChange={(e) => {
          setTitle(e.target.value);
          setError('');
        }}
        onKeyDown={(e) => e.key === 'Escape' && onCancel()}
        className={inputClasses}
      />
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {submitLabel}
        </Button>
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** "New board" in a workspace's group of the switcher (its admins only). */
export function NewBoardForm({ workspaceName }: { workspaceName: string }) {
  const [open, setOpen] = useState(false);
  const { create } = useBoardAdmin();
  const navigate = useNavigate();
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`New board in ${workspaceName}`}
        className="mt-0.5 flex w-full items-center gap-2 rounded-lg px-3 py-1.5 text-left text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        <Plus aria-hidden="true" className="size-3.5" />
        New board
      </button>
    );
  }
  return (
    <TitleForm
      label={`New board in ${workspaceName}`}
      initial=""
      submitLabel="Create"
      pending={create.isPending}
      onCancel={() => setOpen(false)}
      onSubmit={(title, fail) =>
        create.mutate(
          { workspaceName, title },
          {
            onSuccess: (board) => {
              setOpen(false);
              navigate(boardPathOf(board._id));
            },
            onError: (err) => fail(errorText(err)),
          },
        )
      }
    />
  );
}

/** The open board's name, with Rename and Delete for those who manage it. */
export function BoardHeader({ board }: { board: BoardDetail }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { rename, remove } = useBoardAdmin();
  const navigate = useNavigate();
  const manage = boardRoleCan(board.role, 'manage') && board.workspace !== null;
  const title = board.workspace ? board.title : 'Personal board';
  return (
    <div className="mb-2 flex flex-wrap items-center gap-2">
      {renaming ? (
        <TitleForm
          label={`Rename board ${board.title}`}
          initial={board.title}
          submitLabel="Save"
          pending={rename.isPending}
          onCancel={() => setRenaming(false)}
          onSubmit={(next, fail) =>
            rename.mutate(
              { boardId: board._id, title: next },
              { onSuccess: () => setRenaming(false), onError: (err) => fail(errorText(err)) },
            )
          }
        />
      ) : (
        <p className="text-lg font-semibold">
          {title}
          {/* Spaces in the text itself: margins alone would read "Team boardin Acme". */}
          {board.workspace && (
            <>
              {' '}
              <span className="ml-1 text-sm font-normal text-slate-500">in {board.workspace.name}</span>
            </>
          )}
          {board.role === 'viewer' && (
            <>
              {' '}
              <span className="ml-1 text-sm font-normal text-slate-500">(view only)</span>
            </>
          )}
        </p>
      )}
      {manage && !renaming && (
        <>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Rename board ${board.title}`}
            onClick={() => setRenaming(true)}
          >
            <Pencil aria-hidden="true" className="size-4" />
            Rename
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Delete board ${board.title}`}
            onClick={() => setDeleting(true)}
          >
            <Trash2 aria-hidden="true" className="size-4" />
            Delete
          </Button>
        </>
      )}
      {deleting && (
        <Dialog
          role="alertdialog"
          onClose={() => setDeleting(false)}
          title={`Delete board ${board.title}?`}
          description="Its lists and cards are deleted for everyone in the workspace."
        >
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDeleting(false)}>
              Cancel
            </Button>
            <Button
              data-autofocus
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(board._id, {
                  onSuccess: () => {
                    toast.success('Board deleted');
                    navigate('/task');
                  },
                  onError: (err) => toast.error(`Failed to delete the board: ${errorText(err)}`),
                })
              }
            >
              Delete board
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
