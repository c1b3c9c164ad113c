import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Each area keeps its strings in `locales/<lang>/<area>.json`; the file name becomes the
 * top-level key, so `locales/en/login.json` `{ "title": ... }` is `t('login.title')`.
 */
function load(files: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [path, mod] of Object.entries(files)) {
    const area = path.split('/').pop()!.replace(/\.json$/, '');
    out[area] = (mod as { default: unknown }).default;
  }
  return out;
}
/** The console's areas, with the texts it shares with the server (contracts' messages.ts) merged in. */
function withShared(lang: Language, areas: Record<string, unknown>) {
  const out = { ...areas };
  for (const [area, texts] of Object.entries(SHARED_MESSAGES[lang])) out[area] = { ...(out[area] as object), ...texts };
  return out;
}
export const resources = {
  en: { translation: withShared('en', load(import.meta.glob('./locales/en/*.json', { eager: true }))) },
  ru: { translation: withShared('ru', load(import.meta.glob('./locales/ru/*.json', { eager: true }))) },
};

/** The browser's first language we speak; English when none. */
export function detectLanguage(langs: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  for (const l of langs) {
    const base = l.toLowerCase().split('-')[0];
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
document.documentElement.lang = i18n.language;

export default i18n;
