import { type ReactNode, useDeferredValue } from 'react';

/**
 * Shows `fallback` in the commit that reveals this spot, then renders `children` in a background
 * render that yields to the browser every few milliseconds. A big view (a workspace with its sidebar,
 * header and conversation) then mounts without one long task holding a phone's main thread (issue 19);
 * later updates inside it render as usual.
 */
export function InBackground({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : fallback;
}
