import type { Channel, WorkspaceDetail } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/checkbox-field.tsx';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { membersQuery, useCreateChannel } from './workspaces.queries.ts';

const MISSING = 'Please provide a channel name and description.';
const FAILED = 'Failed to create channel';

interface CreateChannelFormProps {
  workspace: WorkspaceDetail;
  onCreated: (channel: Channel) => void;
  onCancel: () => void;
}

// The shared schema brings zod: fetched as the form opens, not with the channel page (issue 21).
const loadSchema = () => import('@cohort/shared/workspaces').then((m) => m.createChannelBody);

/** SPEC §2 "Create channel modal": used inside the modal and on /workspace/{name}/create-channel. */
export function CreateChannelForm({ workspace, onCreated, onCancel }: CreateChannelFormProps) {
  const me = useMe();
  const members = useQuery(membersQuery(workspace.name));
  const create = useCreateChannel(workspace.name);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [isPrivate, setIsPrivate] = useState(false);
  const [error, setError] = useState<{ message: string; detail?: string }>();
  const [invalid, setInvalid] = useState<{ name?: boolean; description?: boolean }>({});
  const privateHintId = useId();

  // Only people who joined can be listed (invitations have no account yet); the creator always is.
  const choices = (members.data ?? []).filter(
    (m): m is typeof m & { _id: string } => m._id !== null && m.status === 'active' && m._id !== me.data?._id,
  );

  useEffect(() => {
    loadSchema().catch(() => {
      // Offline: submitting tries again.
    });
  }, []);

  function toggle(id: string, checked: boolean) {
    setSelected((list) => (checked ? [...list, id] : list.filter((x) => x !== id)));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    let createChannelBody: Awaited<ReturnType<typeof loadSchema>>;
    try {
      createChannelBody = await loadSchema();
    } catch {
      setError({ message: FAILED });
      return;
    }
    const parsed = createChannelBody.safeParse({ name, description, members: selected, private: isPrivate });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue?.message ?? MISSING;
      if (message === MISSING) {
        setInvalid({ name: !name.trim(), description: !description.trim() });
      } else {
        const field = issue?.path[0];
        setInvalid({ name: field === 'name', description: field === 'description' });
      }
      // Said once: in the form's alert (a toast would repeat it behind the dialog's overlay).
      setError({ message });
      focusFirstInvalid(form);
      return;
    }
    setError(undefined);
    setInvalid({});
    create.mutate(parsed.data, {
      onSuccess: (channel) => {
        toast.success(`Channel ${channel.name} created`);
        onCreated(channel);
      },
      onError: (err) => {
        const detail = err instanceof ApiError ? err.message : undefined;
        setError({ message: FAILED, detail });
        if (err instanceof ApiError && err.status === 409) setInvalid({ name: true });
      },
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <TextField
        label="Channel name"
        name="name"
        autoComplete="off"
        required
        placeholder="e.g. general"
        value={name}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={invalid.name || undefined}
      />
      <TextAreaField
        label="Description"
        name="description"
        required
        rows={3}
        className="min-h-20"
        placeholder="What is this channel about?"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        aria-invalid={invalid.description || undefined}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Members</legend>
        <p className="mt-0.5 text-sm text-slate-600">You are always a member of the channels you create.</p>
        <div className="mt-2 max-h-44 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 px-3 py-2.5">
          {members.isPending ? (
            <p role="status" className="text-sm text-slate-600">
              Loading members...
            </p>
          ) : members.isError ? (
            <p className="text-sm text-slate-600">The member list could not be loaded.</p>
          ) : choices.length === 0 ? (
            <p className="text-sm text-slate-600">No other members have joined this workspace yet.</p>
          ) : (
            <ul className="space-y-2">
              {choices.map((member) => (
                <li key={member._id}>
                  <CheckboxField
                    label={<span className="break-all">{member.email}</span>}
                    checked={selected.includes(member._id)}
                    onChange={(event) => toggle(member._id, event.target.checked)}
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
      </fieldset>
      <div>
        <CheckboxField
          label="Private channel"
          checked={isPrivate}
          onChange={(event) => setIsPrivate(event.target.checked)}
          aria-describedby={privateHintId}
        />
        <p id={privateHintId} className="mt-0.5 pl-6 text-sm text-slate-600">
          Only the members you pick (and you) can see it; everyone else in the workspace can see open
          channels.
        </p>
      </div>
      {error && (
        <div role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium">{error.message}</p>
          {error.detail && <p className="mt-1">{error.detail}</p>}
        </div>
      )}
      <div className="flex flex-wrap justify-end gap-3 pt-1">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          Create Channel
        </Button>
      </div>
    </form>
  );
}
