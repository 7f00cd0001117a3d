import { WORKSPACE_ROLES, type WorkspaceRole } from '@cohort/shared/workspaces.constants';
import { type SelectHTMLAttributes, useId } from 'react';
import { inputClasses } from '../../components/ui/field.tsx';
import { cn } from '../../lib/cn.ts';

export const ROLE_LABELS: Record<WorkspaceRole, string> = {
  viewer: 'Viewer',
  editor: 'Editor',
  admin: 'Admin',
};

type RoleSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'> & {
  label: string;
  value: WorkspaceRole;
  onChange: (role: WorkspaceRole) => void;
  hideLabel?: boolean;
};

/** A labelled select of the three workspace roles, weakest first (viewer is the default). */
export function RoleSelect({ label, value, onChange, hideLabel, className, ...props }: RoleSelectProps) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className={cn('block text-sm font-medium text-slate-800', hideLabel && 'sr-only')}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as WorkspaceRole)}
        className={cn(inputClasses, 'pr-8', className)}
        {...props}
      >
        {WORKSPACE_ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </div>
  );
}
