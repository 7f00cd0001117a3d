// The heading style every taskboard section shares.
export const sectionHeading = 'text-xl font-bold tracking-tight text-slate-900 dark:text-slate-100';
