import { Link } from 'react-router';
import type { Theme } from '../../lib/theme.ts';
import { sectionHeading } from './section-heading.ts';

export function SettingsSection({
  theme,
  onThemeChange,
}: {
  theme: Theme;
  onThemeChange: (t: Theme) => void;
}) {
  return (
    <section aria-labelledby="settings-heading" className="space-y-4">
      <h2 id="settings-heading" className={sectionHeading}>
        Settings
      </h2>
      <div className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800">
        <h3 className="font-semibold">Profile Information</h3>
        <Link
          to="/profile"
          className="mt-1 inline-block text-sm text-indigo-700 hover:underline dark:text-indigo-300"
        >
          View and edit your profile
        </Link>
      </div>
      <fieldset className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800">
        <legend className="px-1 font-semibold">Theme</legend>
        <div className="flex gap-4">
          {(['light', 'dark'] as const).map((t) => (
            <label key={t} className="inline-flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="taskboard-theme"
                value={t}
                checked={theme === t}
                onChange={() => onThemeChange(t)}
                className="accent-indigo-600"
              />
              {t === 'light' ? 'Light' : 'Dark'}
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
