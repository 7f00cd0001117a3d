import { Construction } from 'lucide-react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { buttonClasses } from './button.tsx';

/** Placeholder for screens of capabilities that are not built yet; each feature replaces its own. */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  useDocumentTitle(title);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Construction aria-hidden="true" className="size-12 text-indigo-600" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-600">
        {description ?? `The ${title} screen is coming soon. We are building it right now.`}
      </p>
      <Link to="/" className={buttonClasses('secondary', 'md', 'mt-8')}>
        Back to home
      </Link>
    </section>
  );
}
