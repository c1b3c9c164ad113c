import { describe, expect, it } from 'vitest';
import { DEMO_AGENT, demoLanguage, demoSites } from './sites.ts';

describe("the demo's sites", () => {
  it('are named in the server\'s language, with the same codes and addresses in both', () => {
    const en = demoSites('en');
    const ru = demoSites('ru');
    expect(en.map((s) => s.name)).toEqual(['Head office', 'Warehouse', 'Branch office']);
    for (const site of ru) expect(site.name, site.code).toMatch(/^[А-ЯЁа-яё -]+$/);
    expect(ru.map(({ code, base, count, range }) => ({ code, base, count, range }))).toEqual(en.map(({ code, base, count, range }) => ({ code, base, count, range })));
    expect(ru.every((s, i) => s.names.includes(en[i]!.name))).toBe(true);
    expect(DEMO_AGENT.ru.name).toMatch(/[а-яё]/i);
  });

  it('read the language as the server does: ru in any case, English when unset', () => {
    expect(['ru', 'RU', 'Ru'].map(demoLanguage)).toEqual(['ru', 'ru', 'ru']);
    expect([undefined, '', 'en', 'EN'].map(demoLanguage)).toEqual(['en', 'en', 'en', 'en']);
  });
});
