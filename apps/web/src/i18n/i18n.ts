import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadWithRetry } from '../lib/load-with-retry.ts';
import { START_TEXTS } from './locales/start.ts';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The screens' texts of each language are a chunk of their own (issue 22): a reader loads only theirs. */
const SCREEN_TEXTS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
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

const lng = detectLanguage();

/**
 * Resolves once i18next speaks the start's texts (in the entry: the sign-in form and the shell
 * render at once). Both languages have the same keys (i18n-keys.test.ts), so no other language
 * is loaded as a fallback.
 */
export const i18nReady: Promise<unknown> = i18n
  .use(initReactI18next)
  .init({ resources: { [lng]: { translation: START_TEXTS[lng] } }, lng, fallbackLng: false, interpolation: { escapeValue: false } })
  .then(() => {
    // Unit tests run without a page.
    if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
  });

let screenTexts: Promise<void> | null = null;

/**
 * The reader's texts of the screens, asked for by the first lazy screen beside its own chunk
 * (not by the login form) and awaited by every one; tried again like a chunk when the network fails.
 */
export function screenTextsReady(): Promise<void> {
  screenTexts ??= i18nReady
    .then(() => loadWithRetry(SCREEN_TEXTS[lng]))
    .then(({ default: texts }) => void i18n.addResourceBundle(lng, 'translation', texts, true, true));
  // A failure is the screen's to report (ChunkLoadError); the next screen asks again.
  screenTexts.catch(() => (screenTexts = null));
  return screenTexts;
}

export default i18n;
