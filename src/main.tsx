import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { appStore } from './state/store.ts';
import { bootFromUrl, startUrlSync } from './state/urlSync.ts';

// The permalink gives the initial state before the first render; then one subscriber owns the URL.
bootFromUrl(appStore);
startUrlSync(appStore);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
