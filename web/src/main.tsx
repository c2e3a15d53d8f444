import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './app/styles.css';

const container = document.getElementById('root');

/** A failure before React can show its own error screen still leaves the visitor a message. */
function showMountFailure(error: unknown) {
  console.error('The storefront failed to start', error);
  if (!container) return;
  container.innerHTML = '';
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;text-align:center;color:#17191c';
  const h = document.createElement('h1');
  h.textContent = 'Something went wrong. Please refresh the page.';
  const b = document.createElement('button');
  b.textContent = 'Refresh Page';
  b.style.cssText = 'margin-top:1.5rem;padding:.75rem 1.5rem;border:0;border-radius:.375rem;background:#f5b301;color:#17191c;font-weight:600;cursor:pointer';
  b.onclick = () => window.location.reload();
  box.append(h, b);
  container.append(box);
}

try {
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} catch (error) {
  showMountFailure(error);
}
