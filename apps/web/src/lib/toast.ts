import type { ExternalToast } from 'sonner';

// Toasts without sonner in the entry chunk (issue 21: ~9 KiB of gzip every first visit downloaded
// before the first screen). Call sites use this facade; sonner and its <Toaster> load in their own
// chunk (./toaster.tsx) once the page has loaded, or at the first toast if that comes sooner. Calls
// made before it arrives run in order when it does (sonner shows toasts created before its Toaster
// subscribed), so nothing is lost and nothing is shown twice.

type Message = Parameters<typeof import('sonner').toast>[0];
type ToasterModule = typeof import('./toaster.tsx');

let loading: Promise<ToasterModule> | undefined;
let loaded: ToasterModule | undefined;
const listeners = new Set<(module: ToasterModule) => void>();

/** The sonner chunk, requested once; a failed download (offline) is tried again at the next call. */
export function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster.tsx').then(
    (module) => {
      loaded = module;
      for (const listener of listeners) listener(module);
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Calls `listener` once the sonner chunk is here (now if it already is); returns the unsubscribe. */
export function onToasterLoaded(listener: (module: ToasterModule) => void): () => void {
  if (loaded) listener(loaded);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(kind: 'message' | 'success' | 'error', message: Message, data?: ExternalToast) {
  loadToaster().then(
    ({ toast: sonner }) => {
      if (kind === 'message') sonner(message, data);
      else sonner[kind](message, data);
    },
    () => {
      // The chunk could not be fetched (network gone): the page itself says so; nothing to show.
    },
  );
}

/** sonner's `toast`, `toast.success` and `toast.error`, shown by the <Toaster> of app/providers.tsx. */
export const toast = Object.assign(
  (message: Message, data?: ExternalToast) => show('message', message, data),
  {
    success: (message: Message, data?: ExternalToast) => show('success', message, data),
    error: (message: Message, data?: ExternalToast) => show('error', message, data),
  },
);
