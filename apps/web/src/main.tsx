import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n/i18n.ts';
import { App } from './app/app.tsx';

const root = document.getElementById('root')!;

/**
 * The reader's texts did not arrive in the 120 s a chunk is given (spec section 9): with no
 * texts to speak in, the page says so in both languages, with a reload button.
 */
function textsFailed() {
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'max-width:480px;margin:15vh auto;padding:16px;font-family:sans-serif;line-height:1.5';
  for (const line of ['The console could not be loaded. Check the connection and reload the page.', 'Не удалось загрузить консоль. Проверьте соединение и обновите страницу.']) {
    box.appendChild(document.createElement('p')).textContent = line;
  }
  const reload = box.appendChild(document.createElement('button'));
  reload.textContent = 'Reload / Обновить';
  reload.onclick = () => window.location.reload();
  root.replaceChildren(box);
}

// The console renders once the reader's texts are there (a small chunk of their own).
i18nReady.then(
  () =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  textsFailed,
);
