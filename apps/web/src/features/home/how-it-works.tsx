import { LayoutGrid, Rocket, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';

const steps = [
  {
    title: 'Sign Up',
    text: 'Create your free account with your e-mail or Google in under a minute.',
    icon: UserPlus,
  },
  {
    title: 'Create a Workspace',
    text: 'Name your workspace, invite teammates and give each one a role.',
    icon: LayoutGrid,
  },
  {
    title: 'Start Collaborating',
    text: 'Open channels, chat in real time, plan tasks and jump on a call.',
    icon: Rocket,
  },
];

export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="scroll-mt-20 bg-white py-20">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <div className="text-center">
          <h2 id="how-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            How It Works
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            From sign-up to your first conversation in three steps.
          </p>
        </div>
        <ol className="relative mt-14 grid gap-10 md:grid-cols-3">
          {/* The timeline's line: decorative, behind the step markers on wide screens. */}
          <span
            aria-hidden="true"
            className="absolute top-6 right-[16%] left-[16%] hidden h-0.5 bg-indigo-100 md:block"
          />
          {steps.map(({ title, text, icon: Icon }, index) => (
            <li key={title} className="relative flex flex-col items-center text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-indigo-600 text-white shadow-md ring-8 ring-white">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <p className="mt-4 text-sm font-semibold text-indigo-700">Step {index + 1}</p>
              <h3 className="mt-1 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-14 text-center">
          <Link to="/signup" className={buttonClasses('primary', 'lg')}>
            Get Started Today
          </Link>
        </div>
      </div>
    </section>
  );
}
