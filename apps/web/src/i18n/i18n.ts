import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadWithRetry } from '../lib/load-with-retry.ts';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's texts are a chunk of their own (issue 22): a reader loads only theirs. */
const TEXTS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('./locales/en.ts'),
  ru: () => import('./locales/ru.ts'),
};

/** The browser's first language we speak; English when none. */
export function detectLanguage(langs: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  for (const l of langs) {
    const base = l.toLowerCase().split('-')[0];
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return 'en';
}

/**
 * Resolves once the reader's language is loaded: the console renders after it (main.tsx). Both
 * languages have the same keys (i18n-keys.test.ts), so no other language is loaded as a fallback.
 */
export const i18nReady: Promise<unknown> = (async () => {
  const lng = detectLanguage();
  // Tried again like a screen's chunk: a flaky network or a restarting server is waited out.
  const translation = (await loadWithRetry(TEXTS[lng])).default;
  await i18n.use(initReactI18next).init({ resources: { [lng]: { translation } }, lng, fallbackLng: false, interpolation: { escapeValue: false } });
  document.documentElement.lang = i18n.language;
})();

export default i18n;
