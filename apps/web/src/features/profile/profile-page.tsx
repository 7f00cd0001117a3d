import type { PublicUser } from '@cohort/shared/accounts';
import { fullName } from '@cohort/shared/names';
import { type ProfileResponse, type UpdateProfileBody, updateProfileBody } from '@cohort/shared/workspaces';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, LoaderCircle, Pencil } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { rememberUser } from '../../lib/storage.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { meQueryKey } from '../accounts/accounts.public.ts';
import { ChangeEmailSection } from './change-email-section.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { SecuritySection } from './security-section.tsx';

const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: ({ signal }) => api.get<ProfileResponse>('/api/profile', signal),
});

type ProfileUser = ProfileResponse['user'];

/** /profile (SPEC §2 "User Profile"): always the signed-in user's own profile. */
export default function ProfilePage() {
  useDocumentTitle('User Profile');
  const profile = useQuery(profileQuery);
  const [editing, setEditing] = useState(false);
  const header = useRef<HTMLDivElement>(null);
  // Closing the form returns focus to the button that opened it (it replaced the form in the DOM).
  const finishEditing = () => {
    setEditing(false);
    setTimeout(() => header.current?.querySelector('button')?.focus(), 0);
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">User Profile</h1>
      {profile.isPending ? (
        <p role="status" className="mt-8 text-slate-600">
          Loading...
        </p>
      ) : profile.isError ? (
        <p role="alert" className="mt-8 rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
          Failed to fetch profile data
        </p>
      ) : (
        <div className="mt-8 space-y-8">
          <section
            aria-labelledby="personal-heading"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <div ref={header} className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="personal-heading" className="text-lg font-semibold text-slate-900">
                Personal Information
              </h2>
              {profile.data.user && !editing && (
                <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
                  <Pencil aria-hidden="true" className="size-4" />
                  Edit profile
                </Button>
              )}
            </div>
            {!profile.data.user ? (
              <p className="mt-4 text-slate-600">User details not found</p>
            ) : editing ? (
              <EditProfileForm user={profile.data.user} onDone={finishEditing} />
            ) : (
              <PersonalInformation user={profile.data.user} />
            )}
          </section>

          <ChangeEmailSection />

          <section
            aria-labelledby="password-heading"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <h2 id="password-heading" className="text-lg font-semibold text-slate-900">
              Password
            </h2>
            <ChangePasswordForm />
          </section>

          <SecuritySection />

          <section
            aria-labelledby="created-heading"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <h2 id="created-heading" className="text-lg font-semibold text-slate-900">
              Workspaces Created by You
            </h2>
            {profile.data.workspaces.length === 0 ? (
              <p className="mt-4 text-slate-600">You have not created any workspaces yet.</p>
            ) : (
              <ul className="mt-4 divide-y divide-slate-200">
                {profile.data.workspaces.map((workspace) => (
                  <li key={workspace._id} className="flex items-start justify-between gap-4 py-4">
                    <div className="min-w-0">
                      <h3 className="font-semibold break-words text-slate-900">{workspace.name}</h3>
                      <p className="mt-0.5 text-sm break-words text-slate-600">{workspace.description}</p>
                    </div>
                    <Link
                      to={`/workspace/${encodeURIComponent(workspace.name)}`}
                      aria-label={`Open ${workspace.name}`}
                      className="flex shrink-0 items-center gap-1 rounded text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                    >
                      Open
                      <ArrowRight aria-hidden="true" className="size-4" />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function PersonalInformation({ user }: { user: ProfileUser }) {
  const rows = [
    { label: 'Name', value: fullName(user) || 'Not specified' },
    { label: 'E-mail', value: user.email },
    { label: 'Role', value: user.role || 'Not specified' },
    { label: 'Phone', value: user.phone || 'Not specified' },
  ];
  return (
    <dl className="mt-6 grid gap-x-8 gap-y-5 sm:grid-cols-2">
      {rows.map((row) => (
        <div key={row.label}>
          <dt className="text-sm font-medium text-slate-600">{row.label}</dt>
          <dd className="mt-1 break-words text-slate-900">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Server messages for field-level checks read "phone: Enter a valid phone number"; the field shows the rest. */
const withoutFieldPrefix = (message: string, field: string) =>
  message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;

function EditProfileForm({ user, onDone }: { user: ProfileUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);
  const save = useMutation({
    mutationFn: (body: UpdateProfileBody) => api.patch<ProfileResponse>('/api/profile', body),
    onSuccess: (data) => {
      queryClient.setQueryData(profileQuery.queryKey, data);
      // The navbar and the display-only stored name follow the new name.
      queryClient.setQueryData(meQueryKey, (me: PublicUser | null | undefined) =>
        me ? { ...me, firstName: data.user.firstName, lastName: data.user.lastName } : me,
      );
      rememberUser(data.user);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = updateProfileBody.safeParse({
      firstName: data.get('firstName'),
      lastName: data.get('lastName'),
      role: data.get('role'),
      phone: data.get('phone'),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Profile updated');
        onDone();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.field) {
          setErrors({ [err.field]: withoutFieldPrefix(err.message, err.field) });
          focusFirstInvalid(form);
        } else {
          setErrors({
            form: err instanceof ApiError ? err.message : 'Something went wrong. Please try again',
          });
        }
      },
    });
  }

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Edit profile" className="mt-6 space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          required
          defaultValue={user.firstName}
          error={errors.firstName}
        />
        <TextField
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          required
          defaultValue={user.lastName}
          error={errors.lastName}
        />
        <TextField
          label="Role"
          name="role"
          autoComplete="organization-title"
          placeholder="e.g. Designer"
          defaultValue={user.role ?? ''}
          error={errors.role}
          hint="Your job title; leave empty to clear it."
        />
        <TextField
          label="Phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          placeholder="+1 555 010 0000"
          defaultValue={user.phone ?? ''}
          error={errors.phone}
        />
      </div>
      <p className="text-sm text-slate-600">
        E-mail: <span className="font-medium text-slate-800">{user.email}</span> (it cannot be changed here)
      </p>
      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {errors.form}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          Save changes
        </Button>
      </div>
    </form>
  );
}
