import {
  SECURITY_MESSAGES,
  type TwoFactorDisableBody,
  type TwoFactorEnableResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
  totpCodeSchema,
} from '@cohort/shared/security';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Download, LoaderCircle, ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { securityKeys, twoFactorQuery } from './security-queries.ts';

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again';

/**
 * Two-factor sign-in (TOTP): turn it on (scan the QR code or type the secret, confirm with a first
 * code), keep the recovery codes shown once, or turn it off with the password and a code.
 */
export function SecurityTwoFactor() {
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorQuery);
  const [setup, setSetup] = useState<TwoFactorSetupResponse>();
  const [codes, setCodes] = useState<string[]>();

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: securityKeys.twoFactor() });
    // Workspaces that require two-factor sign-in open (or close) now.
    void queryClient.invalidateQueries({ queryKey: ['workspaces'] });
  };

  return (
    <div className="mt-4">
      <h3 className="font-semibold text-slate-900">Two-factor sign-in</h3>
      {status.isPending ? (
        <p role="status" className="mt-2 text-slate-600">
          Loading...
        </p>
      ) : status.isError ? (
        <p role="alert" className="mt-2 font-medium text-red-800">
          Failed to load your two-factor sign-in settings
        </p>
      ) : codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />
      ) : status.data.enabled ? (
        <TurnOff status={status.data} onDone={changed} />
      ) : setup ? (
        <ConfirmSetup
          setup={setup}
          onCancel={() => setSetup(undefined)}
          onEnabled={(res) => {
            setSetup(undefined);
            setCodes(res.recoveryCodes);
            toast.success(res.message);
            changed();
          }}
        />
      ) : (
        <StartSetup onStarted={setSetup} />
      )}
    </div>
  );
}

function StartSetup({ onStarted }: { onStarted: (setup: TwoFactorSetupResponse) => void }) {
  const start = useMutation({ mutationFn: () => api.post<TwoFactorSetupResponse>('/api/2fa/setup') });
  return (
    <div className="mt-2">
      <p className="text-sm text-slate-600">
        Off. With two-factor sign-in, signing in with your password also asks for a code from an authenticator
        app on your phone, so a stolen password alone is not enough.
      </p>
      {start.isError && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {errorText(start.error)}
        </p>
      )}
      <Button
        className="mt-4"
        onClick={() => start.mutate(undefined, { onSuccess: onStarted })}
        disabled={start.isPending}
      >
        {start.isPending ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <ShieldCheck aria-hidden="true" className="size-4" />
        )}
        Turn on two-factor sign-in
      </Button>
    </div>
  );
}

function ConfirmSetup(props: {
  setup: TwoFactorSetupResponse;
  onCancel: () => void;
  onEnabled: (res: TwoFactorEnableResponse) => void;
}) {
  const [error, setError] = useState<string>();
  const enable = useMutation({
    mutationFn: (code: string) => api.post<TwoFactorEnableResponse>('/api/2fa/enable', { code }),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = totpCodeSchema.safeParse(new FormData(form).get('code') ?? '');
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      focusFirstInvalid(form);
      return;
    }
    setError(undefined);
    enable.mutate(parsed.data, {
      onSuccess: props.onEnabled,
      onError: (err) => {
        setError(errorText(err));
        focusFirstInvalid(form);
      },
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Set up two-factor sign-in" className="mt-3 space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Scan the QR code with an authenticator app (or type the secret key into it).</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-wrap items-start gap-6">
        <img
          src={props.setup.qrCode}
          alt="QR code for your authenticator app"
          width={176}
          height={176}
          className="size-44 rounded-lg border border-slate-200 bg-white"
        />
        <div className="min-w-0 flex-1 space-y-4">
          <dl>
            <dt className="text-sm font-medium text-slate-800">Secret key</dt>
            <dd className="mt-1">
              <code
                data-testid="totp-secret"
                className="block rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900 select-all"
              >
                {props.setup.secret}
              </code>
            </dd>
          </dl>
          <TextField
            label="6-digit code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
            error={error}
          />
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={enable.isPending}>
          {enable.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          Confirm and turn on
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Recovery codes copied');
    } catch {
      toast.error('Copying is not allowed here: select the codes and copy them yourself');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'cohort-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="mt-3 space-y-4">
      <p
        ref={heading}
        tabIndex={-1}
        className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 outline-none"
      >
        Save these recovery codes now: they are shown only once. Each one signs you in once if you lose your
        phone.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid max-w-md grid-cols-2 gap-2 font-mono text-sm text-slate-900"
      >
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-3 py-1.5 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" size="sm" onClick={copy}>
          <Copy aria-hidden="true" className="size-4" />
          Copy
        </Button>
        <Button variant="secondary" size="sm" onClick={download}>
          <Download aria-hidden="true" className="size-4" />
          Download
        </Button>
        <Button size="sm" onClick={onDone}>
          I have saved my codes
        </Button>
      </div>
    </div>
  );
}

function TurnOff({ status, onDone }: { status: TwoFactorStatus; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const disable = useMutation({
    mutationFn: (body: TwoFactorDisableBody) => api.post<{ message: string }>('/api/2fa/disable', body),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = String(data.get('password') ?? '');
    const code = String(data.get('code') ?? '').trim();
    const next: FieldErrors = {};
    if (status.hasPassword && !password) next.password = SECURITY_MESSAGES.passwordRequired;
    if (!code) next.code = SECURITY_MESSAGES.codeRequired;
    setErrors(next);
    if (Object.keys(next).length > 0) {
      focusFirstInvalid(form);
      return;
    }
    disable.mutate(status.hasPassword ? { password, code } : { code }, {
      onSuccess: (res) => {
        toast.success(res.message);
        setOpen(false);
        onDone();
      },
      onError: (err) => {
        setErrors(
          err instanceof ApiError && err.field ? { [err.field]: err.message } : { form: errorText(err) },
        );
        focusFirstInvalid(form);
      },
    });
  }

  return (
    <div className="mt-2">
      <p className="text-sm text-slate-700">
        <span className="font-medium text-emerald-800">On.</span> Signing in with your password also asks for
        a code from your authenticator app. {status.recoveryCodesLeft} of 10 recovery codes left.
      </p>
      {!open ? (
        <Button variant="secondary" size="sm" className="mt-4" onClick={() => setOpen(true)}>
          Turn off two-factor sign-in
        </Button>
      ) : (
        <form
          noValidate
          onSubmit={onSubmit}
          aria-label="Turn off two-factor sign-in"
          className="mt-4 max-w-md space-y-4"
        >
          {status.hasPassword ? (
            <PasswordField
              label="Password"
              name="password"
              autoComplete="current-password"
              error={errors.password}
            />
          ) : (
            <p className="text-sm text-slate-600">
              Your account signs in with Google: a code is proof enough.
            </p>
          )}
          <TextField
            label="Code"
            name="code"
            autoComplete="one-time-code"
            spellCheck={false}
            hint="A code from your authenticator app, or a recovery code."
            error={errors.code}
          />
          {errors.form && (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
              {errors.form}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={disable.isPending}>
              {disable.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Turn off
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
