/**
 * The demo's three sites, each a fleet of its own on its own /24, scanned as a different range
 * type, and named in the server's language (PAGEWATCH_LANGUAGE), as the server names what it seeds.
 */
export type DemoLanguage = 'en' | 'ru';

/** The demo agent's name and description, when the server runs no built-in agent. */
export const DEMO_AGENT = {
  en: { name: 'Demo agent', description: 'Started by npm run demo' },
  ru: { name: 'Демо-агент', description: 'Запущен командой npm run demo' },
} as const;

/** The server's language as the server reads it: ru in any case, English when unset (any other value stops the server's start). */
export const demoLanguage = (value: string | undefined): DemoLanguage => (value?.toLowerCase() === 'ru' ? 'ru' : 'en');

/** Each site's name in both languages beside its fleet and its range. */
const SITES = [
  { code: 'HQ', en: 'Head office', ru: 'Головной офис', base: '127.0.1.1', count: 20, seed: 101, range: { type: 'NETMASK', address: '127.0.1.0', mask: '255.255.255.0' } },
  { code: 'WAREHOUSE', en: 'Warehouse', ru: 'Склад', base: '127.0.2.1', count: 15, seed: 102, range: { type: 'BROADCAST', address: '127.0.2.0', mask: '/24' } },
  { code: 'BRANCH', en: 'Branch office', ru: 'Филиал', base: '127.0.3.1', count: 15, seed: 103, range: { type: 'RANGE', from: '127.0.3.1', to: '127.0.3.100' } },
];

export function demoSites(language: DemoLanguage) {
  // A data folder started in the other language keeps its ranges: they are known by either name.
  return SITES.map(({ en, ru, ...site }) => ({ ...site, name: { en, ru }[language], names: [en, ru] }));
}
