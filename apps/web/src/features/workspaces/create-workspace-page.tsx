import { emailSchema } from '@cohort/shared/accounts';
import { createWorkspaceBody, WORKSPACE_MESSAGES, type WorkspaceRole } from '@cohort/shared/workspaces';
import { LoaderCircle, Plus, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { ROLE_LABELS, RoleSelect } from './role-select.tsx';
import { useCreateWorkspace } from './workspaces.queries.ts';

interface MemberEntry {
  email: string;
  role: WorkspaceRole;
}

type Field = 'name' | 'description';

/** /workspace/create (SPEC §2 "Create New Workspace"): the creator becomes the workspace's admin. */
export default function CreateWorkspacePage() {
  useDocumentTitle('Create Workspace');
  const navigate = useNavigate();
  const me = useMe();
  const create = useCreateWorkspace();

  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<MemberEntry[]>([]);
  const [memberEmail, setMemberEmail] = useState('');
  const [memberRole, setMemberRole] = useState<WorkspaceRole>('viewer');
  const [memberError, setMemberError] = useState<string>();
  const [error, setError] = useState<string>();
  const [invalid, setInvalid] = useState<Partial<Record<Field, string | true>>>({});
  const memberRow = useRef<HTMLDivElement>(null);
  const focusMemberEmail = () => memberRow.current?.querySelector('input')?.focus();

  function addMember() {
    const given = memberEmail.trim();
    // SPEC §5: a member is added only if an e-mail is given.
    if (!given) {
      setMemberError(undefined);
      focusMemberEmail();
      return;
    }
    const parsed = emailSchema.safeParse(given);
    if (!parsed.success) {
      setMemberError(parsed.error.issues[0]?.message ?? 'Enter a valid e-mail address');
      focusMemberEmail();
      return;
    }
    const email = parsed.data;
    if (me.data && email === me.data.email.toLowerCase()) {
      setMemberError('You are the workspace admin already; add the people you work with.');
      focusMemberEmail();
      return;
    }
    if (members.some((m) => m.email === email)) {
      setMemberError('This e-mail is already in the list.');
      focusMemberEmail();
      return;
    }
    setMembers((list) => [...list, { email, role: memberRole }]);
    // SPEC §4: after each add the input resets to an empty e-mail with role viewer.
    setMemberEmail('');
    setMemberRole('viewer');
    setMemberError(undefined);
    focusMemberEmail();
  }

  function onMemberKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter in the member e-mail adds the member instead of submitting the whole form.
    if (event.key === 'Enter') {
      event.preventDefault();
      addMember();
    }
  }

  /**
   * While an error shows, every edit of the name or description checks again: once the fields are
   * fixed the message goes (a server refusal, such as a taken name, goes on the first edit).
   */
  function recheck(next: { name: string; description: string }) {
    if (!error) return;
    const parsed = createWorkspaceBody.safeParse({ ...next, members });
    if (parsed.success) {
      setError(undefined);
      setInvalid({});
      return;
    }
    const issue = parsed.error.issues[0];
    if (issue?.message === WORKSPACE_MESSAGES.nameAndDescriptionRequired) {
      setInvalid({
        name: !next.name.trim() || undefined,
        description: !next.description.trim() || undefined,
      });
      setError(issue.message);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = createWorkspaceBody.safeParse({ name, description, members });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.message === WORKSPACE_MESSAGES.nameAndDescriptionRequired) {
        // One sentence for both fields (SPEC §5); each missing one is marked.
        setInvalid({ name: !name.trim() || undefined, description: !description.trim() || undefined });
        setError(issue.message);
      } else {
        const field = issue?.path[0];
        setInvalid(field === 'name' || field === 'description' ? { [field]: issue?.message } : {});
        setError(issue?.message ?? 'Error creating workspace');
      }
      focusFirstInvalid(form);
      return;
    }
    setError(undefined);
    setInvalid({});
    create.mutate(parsed.data, {
      onSuccess: (workspace) => {
        const invited = workspace.members.filter((m) => m.status === 'invited').length;
        toast.success(
          invited > 0
            ? `Workspace ${workspace.name} created. Invitation sent to ${invited} ${invited === 1 ? 'person' : 'people'}`
            : `Workspace ${workspace.name} created`,
        );
        navigate('/dashboard');
      },
      onError: (err) => {
        if (err instanceof ApiError) {
          setError(err.message);
          if (err.status === 409) setInvalid({ name: true });
          else if (err.field === 'name' || err.field === 'description') setInvalid({ [err.field]: true });
        } else {
          setError('Error creating workspace');
        }
        focusFirstInvalid(form);
      },
    });
  }

  const fieldError = (field: Field) => (typeof invalid[field] === 'string' ? invalid[field] : undefined);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Create New Workspace</h1>
      <p className="mt-2 text-slate-600">
        A workspace gathers your team, its channels and its projects. You will be its admin.
      </p>
      <form
        noValidate
        onSubmit={onSubmit}
        className="mt-8 space-y-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
      >
        <section aria-labelledby="basic-heading" className="space-y-5">
          <h2 id="basic-heading" className="text-lg font-semibold text-slate-900">
            Basic Information
          </h2>
          <TextField
            label="Workspace Name"
            name="name"
            required
            autoComplete="off"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              recheck({ name: event.target.value, description });
            }}
            error={fieldError('name')}
            aria-invalid={invalid.name ? true : undefined}
            hint="Shown in the workspace's address; unique on Cohort."
          />
          <TextAreaField
            label="Description"
            name="description"
            required
            rows={3}
            className="min-h-24"
            value={description}
            onChange={(event) => {
              setDescription(event.target.value);
              recheck({ name, description: event.target.value });
            }}
            error={fieldError('description')}
            aria-invalid={invalid.description ? true : undefined}
          />
        </section>

        <section aria-labelledby="members-heading" className="space-y-4 border-t border-slate-200 pt-8">
          <div>
            <h2 id="members-heading" className="text-lg font-semibold text-slate-900">
              Add Members
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Everyone you add gets an invitation by e-mail and joins when they accept it.
            </p>
          </div>
          <div ref={memberRow} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-start">
            <TextField
              label="Member e-mail"
              type="email"
              autoComplete="off"
              placeholder="name@example.com"
              value={memberEmail}
              onChange={(event) => setMemberEmail(event.target.value)}
              onKeyDown={onMemberKeyDown}
              error={memberError}
            />
            <RoleSelect label="Role" value={memberRole} onChange={setMemberRole} />
            <Button variant="secondary" className="sm:mt-7" onClick={addMember}>
              <Plus aria-hidden="true" className="size-4" />
              Add Member
            </Button>
          </div>
          {members.length > 0 ? (
            <ul
              aria-label="Members to add"
              className="divide-y divide-slate-200 rounded-lg border border-slate-200"
            >
              {members.map((member) => (
                <li
                  key={member.email}
                  className="flex items-center justify-between gap-3 px-4 py-2.5 text-sm"
                >
                  <span className="min-w-0 break-all text-slate-800">
                    {member.email} — {ROLE_LABELS[member.role]}
                  </span>
                  <button
                    type="button"
                    aria-label={`Remove ${member.email}`}
                    onClick={() => setMembers((list) => list.filter((m) => m.email !== member.email))}
                    className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    <X aria-hidden="true" className="size-4" />
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">No members added yet.</p>
          )}
        </section>

        <div className="space-y-4 border-t border-slate-200 pt-6">
          {error && (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
              {error}
            </p>
          )}
          <div className="flex flex-wrap items-center justify-end gap-3">
            <Link to="/dashboard" className={buttonClasses('ghost', 'md')}>
              Cancel
            </Link>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Create Workspace
            </Button>
          </div>
        </div>
      </form>
    </div>
  );
}
