import { useEffect } from 'react';

/** Each screen names itself so tabs, history and screen readers can tell pages apart. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Cohort` : 'Cohort';
  }, [title]);
}
