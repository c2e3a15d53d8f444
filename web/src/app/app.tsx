import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './providers.tsx';
import { createRouter } from './router.tsx';

export function App() {
  const [router] = useState(createRouter);
  // Server-rendered pages look ready before the app is; this says it now is (browser tests wait for it).
  useEffect(() => document.documentElement.setAttribute('data-app', 'ready'), []);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
