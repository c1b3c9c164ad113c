import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { MeterFlag } from '@pagewatch/contracts/meter-flags';
import { withShared } from '../../i18n/locales/areas.ts';
import { meterFlagText } from './meter-flag-text.ts';

/** The card's texts of implausible meter reads (issue 41) in both languages, from the locale files themselves. */
async function tOf(lng: 'en' | 'ru') {
  const devices = JSON.parse(readFileSync(fileURLToPath(new URL(`../../i18n/locales/${lng}/devices.json`, import.meta.url)), 'utf8'));
  const i18n = i18next.createInstance();
  // With the texts the console shares with the server (the counters' names among them), as the app has them.
  await i18n.init({ lng, resources: { [lng]: { translation: withShared(lng, { devices }) } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

const base = { at: '2026-11-20T10:00:00Z', minutes: null, limit: null, monoPlusColor: null, others: [] };
const jump: MeterFlag = { ...base, kind: 'JUMP', meter: 'total', previousValue: 1500, value: 1_000_000, minutes: 10, limit: 3100, others: [{ meter: 'mono', previousValue: 1500, value: 1_000_000 }] };
const back: MeterFlag = { ...base, kind: 'BACKWARDS', meter: 'scans', previousValue: 300, value: 250 };
const split: MeterFlag = { ...base, kind: 'SPLIT', meter: 'total', previousValue: null, value: 1100, monoPlusColor: 1050 };
const num = (v: number) => new Intl.NumberFormat().format(v);

describe('implausible meter reads on the card', () => {
  it('says each kind in English', async () => {
    const t = await tOf('en');
    expect(meterFlagText(t, jump)).toMatch(new RegExp(`the “Total pages” meter rose from ${num(1500)} to ${num(1_000_000)} in 10 min; at most ${num(3100)} pages .*150 pages a minute assumed.*\\(also: Black-and-white\\)$`));
    expect(meterFlagText(t, back)).toMatch(/: the “Scans” meter went back from 300 to 250$/);
    expect(meterFlagText(t, split)).toMatch(new RegExp(`black-and-white \\+ colour = ${num(1050)}, but the billing total was ${num(1100)}$`));
  });

  it('says each kind in Russian', async () => {
    const t = await tOf('ru');
    expect(meterFlagText(t, jump)).toMatch(/счётчик «Всего страниц» вырос с .* за 10 мин; .*\(также: Чёрно-белые\)$/);
    expect(meterFlagText(t, back)).toMatch(/счётчик «Сканы» уменьшился с 300 до 250$/);
    expect(meterFlagText(t, split)).toMatch(/чёрно-белые \+ цветные = .*, а итог для счёта был /);
  });
});
