import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App() {
  // Server-rendered pages look ready before the app is; this says it now is (browser tests wait for it).
  useEffect(() => document.documentElement.setAttribute('data-app', 'ready'), []);
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
