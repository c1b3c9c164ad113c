import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { COUNTER_RULES } from '@pagewatch/contracts/reading';
import { withShared } from '../../i18n/locales/areas.ts';
import { billedTotalText, sourceText } from './source-text.ts';

/** The card's labels of where a counter or a supply level came from, and of the billed total (issue 57), from the locale files themselves. */
async function tOf(lng: 'en' | 'ru') {
  const devices = JSON.parse(readFileSync(fileURLToPath(new URL(`../../i18n/locales/${lng}/devices.json`, import.meta.url)), 'utf8'));
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { [lng]: { translation: withShared(lng, { devices }) } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

const MIB = '1.3.6.1.2.1.43.11.1.1.9.1.1 (Printer-MIB: prtMarkerSuppliesLevel)';
const RECORD = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0 (brother: brInfoMaintenance, record 81 Black toner)';
const CODE = '1.3.6.1.2.1.43.11.1.1.9.1.2 (brother: level code 3)';
const COLUMN = '1.3.6.1.4.1.367.3.2.1.2.24.1.1.5.1 (ricoh: private level column)';
const SUM = '1.3.6.1.4.1.1347.42.2.1.1.1.7.1.1 (kyocera: row 1.a3) + 1.3.6.1.4.1.1347.42.2.1.1.1.7.1.7 (kyocera: row 1.ledger)';
const num = (v: number) => new Intl.NumberFormat().format(v);

describe('where a level or a counter came from, on the card', () => {
  it('names the Printer-MIB, a maker\'s record and its entry, a level code and a private column, in English', async () => {
    const t = await tOf('en');
    expect(sourceText(t, MIB)).toBe('Printer-MIB prtMarkerSuppliesLevel (1.3.6.1.2.1.43.11.1.1.9.1.1)');
    expect(sourceText(t, RECORD)).toBe('the maker’s record brInfoMaintenance (brother profile), entry 81 “Black toner” (1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0)');
    expect(sourceText(t, CODE)).toBe('brother profile: the maker’s level code 3 (1.3.6.1.2.1.43.11.1.1.9.1.2)');
    expect(sourceText(t, COLUMN)).toBe('ricoh profile: private level column (1.3.6.1.4.1.367.3.2.1.2.24.1.1.5.1)');
    expect(sourceText(t, COUNTER_RULES.monoDevice)).toBe('derived: a monochrome device, black-and-white = total');
    // Rows summed: shown as the agent wrote them.
    expect(sourceText(t, SUM)).toBe(SUM);
  });

  it('says the same in Russian', async () => {
    const t = await tOf('ru');
    expect(sourceText(t, MIB)).toBe('Printer-MIB prtMarkerSuppliesLevel (1.3.6.1.2.1.43.11.1.1.9.1.1)');
    expect(sourceText(t, RECORD)).toBe('запись производителя brInfoMaintenance (профиль brother), код 81 «Black toner» (1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0)');
    expect(sourceText(t, CODE)).toBe('профиль brother: код уровня производителя 3 (1.3.6.1.2.1.43.11.1.1.9.1.2)');
    expect(sourceText(t, COUNTER_RULES.monoDevice)).toMatch(/^вычислено: монохромное устройство/);
  });
});

describe('which total is billed, on the card', () => {
  it('the maker\'s own with the Printer-MIB total beside it, else the Printer-MIB\'s, in both languages', async () => {
    const en = await tOf('en');
    const ru = await tOf('ru');
    expect(billedTotalText(en, { vendorTotalCount: 986, markerTotalCount: 1279 })).toBe(`the maker’s own total; Printer-MIB total (prtMarkerLifeCount): ${num(1279)}`);
    expect(billedTotalText(ru, { vendorTotalCount: 986, markerTotalCount: 1279 })).toBe(`собственному итогу производителя; итог по Printer-MIB (prtMarkerLifeCount): ${num(1279)}`);
    expect(billedTotalText(en, { vendorTotalCount: 9, markerTotalCount: null })).toBe('the maker’s own total; the device gives no Printer-MIB total');
    expect(billedTotalText(en, { vendorTotalCount: null, markerTotalCount: 42_976 })).toBe('the Printer-MIB total (prtMarkerLifeCount); the device has no total of its own');
    expect(billedTotalText(ru, { vendorTotalCount: null, markerTotalCount: 42_976 })).toMatch(/^итогу по Printer-MIB/);
    expect(billedTotalText(en, { vendorTotalCount: null, markerTotalCount: null })).toBeNull();
  });
});
