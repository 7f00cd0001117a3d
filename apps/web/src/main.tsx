import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Providers } from './app/providers.tsx';
import { AppRoutes, preloadRoute } from './app/router.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain #root');

preloadRoute(window.location.pathname);
// As a transition, the first render yields to the browser every few milliseconds instead of holding
// the main thread for the whole tree (a phone's blocking time, issue 19); the app bar painted by
// index.html stays on screen until it commits.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  );
});
