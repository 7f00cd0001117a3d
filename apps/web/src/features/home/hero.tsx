import { ChartColumn, MessagesSquare, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';

const cards = [
  {
    title: 'Free forever',
    text: 'Start on the Free plan with messaging, calls and project management included.',
    icon: Wallet,
  },
  {
    title: 'One real-time suite',
    text: 'Chat, a task board, file sharing and video calls without switching apps.',
    icon: MessagesSquare,
  },
  {
    title: 'Team insights',
    text: 'Collaboration metrics, milestone tracking and team synergy analysis.',
    icon: ChartColumn,
  },
];

export function Hero() {
  return (
    <section id="home" className="scroll-mt-20 bg-gradient-to-b from-indigo-50 via-white to-slate-50">
      <div className="mx-auto max-w-7xl px-4 pt-20 pb-16 sm:px-6 lg:pt-28">
        <div className="mx-auto max-w-3xl text-center">
          <p className="inline-flex rounded-full bg-indigo-100 px-3 py-1 text-sm font-semibold text-indigo-800">
            Team collaboration, simplified
          </p>
          <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-6xl">
            Connect, learn and collaborate in one place
          </h1>
          <p className="mt-6 text-lg leading-8 text-pretty text-slate-600">
            Cohort gives your team workspaces and channels with real-time chat, a shared task board, video
            calls and project tracking, so everyone stays in sync from the first idea to the last pull
            request.
          </p>
          <div className="mt-10 flex flex-wrap items-center justify-center gap-4">
            <Link to="/signup" className={buttonClasses('primary', 'lg')}>
              Get started free
            </Link>
            <a href="#features" className={buttonClasses('secondary', 'lg')}>
              Explore features
            </a>
          </div>
        </div>
        <ul className="mt-16 grid gap-6 md:grid-cols-3">
          {cards.map(({ title, text, icon: Icon }) => (
            <li key={title} className="rounded-2xl border border-slate-200 bg-white/80 p-6 shadow-sm">
              <Icon aria-hidden="true" className="size-8 text-indigo-600" />
              <h2 className="mt-4 text-lg font-semibold text-slate-900">{title}</h2>
              <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
