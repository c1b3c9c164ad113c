import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n/i18n.ts';
import { App } from './app/app.tsx';
import { preloadScreen } from './app/route-table.ts';

// The visit's screen is asked for at once, beside the session and the configuration.
preloadScreen(window.location.pathname);

// The console renders at once in the start's texts (in the entry); the screens' texts of the
// reader's language (a chunk of their own) come with the first screen, beside its chunk, and each
// screen waits for them: the login form does without them (issue 53).
void i18nReady.then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
