import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { PricingPlans } from './pricing-plans.tsx';

export default function PricingPage() {
  useDocumentTitle('Pricing');
  return (
    <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900">Pricing</h1>
        <p className="mt-4 text-lg text-slate-600">
          Simple yearly plans. Start free forever and upgrade when your team needs more.
        </p>
      </div>
      <div className="mt-14">
        <PricingPlans headingLevel="h2" />
      </div>
    </section>
  );
}
