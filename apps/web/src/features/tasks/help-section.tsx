import { BookOpen, HelpCircle, LifeBuoy } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { inputClasses } from '../../components/ui/field.tsx';
import { sectionHeading } from './section-heading.ts';

const HELP_CARDS = [
  { title: 'Documentation', text: 'Guides for boards, lists and task cards.', Icon: BookOpen },
  { title: 'FAQs', text: 'Answers to the questions people ask most.', Icon: HelpCircle },
  { title: 'Contact Support', text: 'Write to us and we will get back to you.', Icon: LifeBuoy },
];

export function HelpSection() {
  const [query, setQuery] = useState('');
  const fieldId = useId();
  const needle = query.trim().toLowerCase();
  const cards = HELP_CARDS.filter(
    (c) => !needle || c.title.toLowerCase().includes(needle) || c.text.toLowerCase().includes(needle),
  );
  return (
    <section aria-labelledby="help-heading">
      <h2 id="help-heading" className={sectionHeading}>
        Help
      </h2>
      <label htmlFor={fieldId} className="sr-only">
        Search help
      </label>
      <input
        id={fieldId}
        type="search"
        placeholder="Search help..."
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className={`${inputClasses} mt-4 max-w-md`}
      />
      <ul className="mt-4 grid gap-4 sm:grid-cols-3">
        {cards.map(({ title, text, Icon }) => (
          <li
            key={title}
            className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800"
          >
            <Icon aria-hidden="true" className="size-6 text-indigo-600" />
            <h3 className="mt-2 font-semibold">{title}</h3>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {title === 'Contact Support' ? (
                <Link to="/contact" className="text-indigo-700 hover:underline dark:text-indigo-300">
                  {text}
                </Link>
              ) : (
                text
              )}
            </p>
          </li>
        ))}
        {cards.length === 0 && <li className="text-slate-600">No help topics match your search</li>}
      </ul>
    </section>
  );
}
