import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';

type Lang = keyof typeof SHARED_MESSAGES;

/**
 * Texts by area: each area keeps its strings in `locales/<lang>/<area>.json`, the file name
 * becoming the top-level key (`locales/en/login.json` `{ "title": ... }` is `t('login.title')`).
 */
export function areas(files: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, mod] of Object.entries(files)) out[path.split('/').pop()!.replace(/\.json$/, '')] = (mod as { default: unknown }).default;
  return out;
}

/** The files of one language among those of both (`./en/nav.json`, `./ru/nav.json`…). */
export const ofLanguage = (lang: Lang, files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).filter(([path]) => path.startsWith(`./${lang}/`)));

/** A language's areas with the texts the console shares with the server (contracts' messages.ts) merged in. */
export function withShared(lang: Lang, texts: Record<string, unknown>): Record<string, unknown> {
  const out = { ...texts };
  for (const [area, shared] of Object.entries(SHARED_MESSAGES[lang])) out[area] = { ...(out[area] as object), ...shared };
  return out;
}
