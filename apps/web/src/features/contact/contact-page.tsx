import { type ContactBody, contactBody } from '@cohort/shared/contact';
import { useMutation } from '@tanstack/react-query';
import { CircleCheck, LoaderCircle, Mail, MapPin, Phone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const linkClasses = 'rounded hover:text-indigo-800 focus-visible:outline-2 focus-visible:outline-indigo-600';

/** /about and /contact share this page (SPEC §2). */
export default function ContactPage() {
  useDocumentTitle('Contact Us');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirmation, setConfirmation] = useState<string>();
  const send = useMutation({
    mutationFn: (body: ContactBody) => api.post<{ message: string }>('/api/contact', body),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setConfirmation(undefined);
    const parsed = contactBody.safeParse({
      name: data.get('name'),
      email: data.get('email'),
      message: data.get('message'),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    send.mutate(parsed.data, {
      onSuccess: (result) => {
        toast.success(result.message);
        setConfirmation('We have received your message and will get back to you within two working days.');
        form.reset();
      },
      onError: (err) => {
        if (err instanceof ApiError) {
          // Once: under its field when the server names one, else as a toast.
          if (err.field) setErrors({ [err.field]: err.message });
          else toast.error(err.message);
        } else {
          toast.error('Something went wrong. Please try again');
        }
      },
    });
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <header className="max-w-2xl">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900">Contact Us</h1>
        <p className="mt-4 text-lg text-slate-600">
          Questions, ideas or feedback? Send us a message and we will reply by e-mail.
        </p>
      </header>
      <div className="mt-12 grid gap-12 lg:grid-cols-5">
        <section className="lg:col-span-2" aria-labelledby="about-heading">
          <h2 id="about-heading" className="text-xl font-semibold text-slate-900">
            About Cohort
          </h2>
          <p className="mt-4 text-slate-600">
            Cohort is for teams who want to connect, learn and collaborate. It gathers workspaces, channels,
            real-time chat, a task board, video calls and project tracking in one place, with a free-forever
            plan for small teams.
          </p>
          <ul className="mt-8 space-y-4 text-slate-700">
            <li className="flex items-center gap-3">
              <Mail aria-hidden="true" className="size-5 text-indigo-600" />
              <a href="mailto:hello@cohort.app" className={linkClasses}>
                hello@cohort.app
              </a>
            </li>
            <li className="flex items-center gap-3">
              <Phone aria-hidden="true" className="size-5 text-indigo-600" />
              <a href="tel:+918040001234" className={linkClasses}>
                +91 80 4000 1234
              </a>
            </li>
            <li className="flex items-center gap-3">
              <MapPin aria-hidden="true" className="size-5 text-indigo-600" />
              Bengaluru, India
            </li>
          </ul>
        </section>
        <section
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-3"
          aria-labelledby="message-heading"
        >
          <h2 id="message-heading" className="text-xl font-semibold text-slate-900">
            Send us a message
          </h2>
          <p className="mt-1 text-sm text-slate-600">All fields are required.</p>
          <div role="status" className="mt-4">
            {confirmation && (
              <p className="flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
                <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
                {confirmation}
              </p>
            )}
          </div>
          <form noValidate onSubmit={onSubmit} className="mt-2 space-y-5">
            <TextField label="Name" name="name" autoComplete="name" required error={errors.name} />
            <TextField
              label="E-mail"
              name="email"
              type="email"
              autoComplete="email"
              required
              error={errors.email}
            />
            <TextAreaField label="Message" name="message" required rows={6} error={errors.message} />
            <Button type="submit" size="lg" disabled={send.isPending}>
              {send.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Send Message
            </Button>
          </form>
        </section>
      </div>
    </div>
  );
}
