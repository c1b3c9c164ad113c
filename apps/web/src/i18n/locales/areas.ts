import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';

/**
 * One language's texts: each area keeps its strings in `locales/<lang>/<area>.json`, the file
 * name becoming the top-level key (`locales/en/login.json` `{ "title": ... }` is
 * `t('login.title')`), with the texts the console shares with the server (contracts'
 * messages.ts) merged in.
 */
export function areas(lang: keyof typeof SHARED_MESSAGES, files: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, mod] of Object.entries(files)) {
    const area = path.split('/').pop()!.replace(/\.json$/, '');
    out[area] = (mod as { default: unknown }).default;
  }
  for (const [area, texts] of Object.entries(SHARED_MESSAGES[lang])) out[area] = { ...(out[area] as object), ...texts };
  return out;
}
