import { Toaster as SonnerToaster, toast } from 'sonner';

// The lazily loaded half of ./toast.ts: sonner itself.
export { toast };

/** The toast live region (sonner, aria-live), as the app shows it. */
export function Toaster() {
  // Bottom right, where a toast covers no navigation or heading; on a phone, above the composer.
  return <SonnerToaster position="bottom-right" closeButton mobileOffset={{ bottom: '6rem' }} />;
}
