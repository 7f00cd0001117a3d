import { Gauge, Milestone, Users } from 'lucide-react';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { PricingPlans } from '../pricing/pricing.public.ts';
import { FeaturesCarousel } from './features-carousel.tsx';
import { Hero } from './hero.tsx';
import { HowItWorks } from './how-it-works.tsx';

const insights = [
  { title: 'Collaboration metrics', text: 'See how work flows between people and channels.', icon: Users },
  {
    title: 'Milestone tracking',
    text: 'Follow projects from first task to merged pull request.',
    icon: Milestone,
  },
  { title: 'Team synergy analysis', text: 'Spot bottlenecks early and keep everyone in sync.', icon: Gauge },
];

export default function HomePage() {
  useDocumentTitle('');
  return (
    <>
      <Hero />
      <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <h2
              id="features-heading"
              className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
            >
              Everything your team needs
            </h2>
            <p className="mt-4 text-lg text-slate-600">
              One place for conversations, decisions and the work that follows them.
            </p>
          </div>
          <div className="mt-4">
            <FeaturesCarousel />
          </div>
        </div>
      </section>
      <HowItWorks />
      <section id="about" aria-labelledby="about-heading" className="scroll-mt-20 py-20">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:items-center">
          <div>
            <h2 id="about-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
              Built for teams who want to grow together
            </h2>
            <p className="mt-4 text-lg text-slate-600">
              Cohort is for teams who want to connect, learn and collaborate. Beyond chat and tasks, it shows
              how your team works so you can make it work better.
            </p>
          </div>
          <ul className="grid gap-4">
            {insights.map(({ title, text, icon: Icon }) => (
              <li
                key={title}
                className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
              >
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-100 text-indigo-700">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section id="pricing" aria-labelledby="pricing-heading" className="scroll-mt-20 bg-white py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="pricing-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
              Pricing
            </h2>
            <p className="mt-4 text-lg text-slate-600">
              Simple yearly plans. Start free, upgrade when you grow.
            </p>
          </div>
          <div className="mt-14">
            <PricingPlans />
          </div>
        </div>
      </section>
    </>
  );
}
