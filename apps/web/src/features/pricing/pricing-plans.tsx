import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { plans } from './plans.ts';

/** The three plan cards; used by /pricing and by the landing page's pricing section. */
export function PricingPlans({ headingLevel = 'h3' }: { headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  return (
    <ul className="grid gap-6 md:grid-cols-3">
      {plans.map((plan) => (
        <li
          key={plan.name}
          className={cn(
            'relative flex flex-col rounded-2xl border bg-white p-8 shadow-sm',
            plan.highlighted ? 'border-indigo-600 ring-1 ring-indigo-600' : 'border-slate-200',
          )}
        >
          {plan.highlighted && (
            <p className="absolute -top-3 left-8 rounded-full bg-indigo-600 px-3 py-0.5 text-xs font-semibold text-white">
              Most popular
            </p>
          )}
          <Heading className="text-lg font-semibold text-slate-900">{plan.name}</Heading>
          <p className="mt-1 text-sm text-slate-600">{plan.tagline}</p>
          <p className="mt-6 flex items-baseline gap-1">
            <span className="text-4xl font-bold tracking-tight text-slate-900">₹{plan.price}</span>
            <span className="text-sm text-slate-600">per year</span>
          </p>
          <ul className="mt-6 flex-1 space-y-3 text-sm text-slate-700">
            {plan.features.map((feature, index) => (
              <li key={feature} className="flex items-start gap-2">
                <Check
                  aria-hidden="true"
                  className={cn(
                    'mt-0.5 size-4 shrink-0',
                    index < plan.inherited ? 'text-slate-500' : 'text-indigo-600',
                  )}
                />
                {feature}
              </li>
            ))}
          </ul>
          <Link
            to="/signup"
            aria-label={`Get started with ${plan.name}`}
            className={buttonClasses(plan.highlighted ? 'primary' : 'secondary', 'md', 'mt-8 w-full')}
          >
            Get started
          </Link>
        </li>
      ))}
    </ul>
  );
}
