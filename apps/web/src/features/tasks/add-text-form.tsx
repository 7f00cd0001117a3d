import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';

/** One text input whose Enter (or Add) sends its trimmed value; blank sends nothing. */
export function AddTextForm({
  label,
  button,
  onAdd,
  pending,
}: {
  label: string;
  button: string;
  onAdd: (text: string, clear: () => void) => void;
  pending: boolean;
}) {
  const [text, setText] = useState('');
  const fieldId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    onAdd(value, () => setText(''));
  }
  return (
    <form onSubmit={submit} className="space-y-2">
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        id={fieldId}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className={inputClasses}
        autoComplete="off"
      />
      <Button type="submit" size="sm" disabled={pending}>
        {button}
      </Button>
    </form>
  );
}
