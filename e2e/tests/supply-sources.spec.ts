import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Where each supply level and counter came from, and which total is billed, on the device card
 * (issue 57), in English and Russian: a Brother read as the agent reads the DCP-L3550CDW's real
 * records (test/walks), one of its levels from the Printer-MIB.
 */
const S = Date.now().toString(36).slice(-6).toUpperCase();
const SERIAL = `BR${S}`;
const MAINTENANCE = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0';
const COUNTER = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.10.0';
let id = 0;

const supply = (index: number, description: string, type: string, colorant: string | null, percent: number, source: string) => ({
  index, type, typeInferred: false, supplyClass: 'consumed', description, colorant, partNumber: null, partSerialNumber: null,
  unit: 'percent', level: percent, maxCapacity: 100, levelState: null, percent, source,
});

test.beforeAll(async ({ playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const record = (code: string, name: string) => `${MAINTENANCE} (brother: brInfoMaintenance, record ${code} ${name})`;
  await sendReadings(request, headers, `E2E sources ${S}`, [{
    id: randomUUID(), runId: null, rangeId: null, ip: '127.0.57.1', port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'brother', modelsVersion: 5,
      sysObjectID: '1.3.6.1.4.1.2435.2.3.9.1', sysDescr: 'Brother NC-8300w', vendor: 'Brother', model: 'DCP-L3550CDW', serialNumber: SERIAL,
      macAddress: null, firmware: 'J1906051424', hostName: null, location: null, isPrinter: true, deviceType: 'MFP', colorType: 'COLOR', paperFormat: 'A4',
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
      counters: {
        total: 1611, markerTotal: 1650, vendorTotal: 1611, totalUnit: null, powerOn: null, mono: 709, color: 902, a3: null, a4: null,
        copies: null, scans: null, fax: null, duplex: 538, derived: [], vendor: [], splitMismatch: null,
        sources: {
          total: `${COUNTER} (brother: brInfoCounter, record 00 Total pages)`, mono: `${COUNTER} (brother: brInfoCounter, record 01 Black-and-white pages)`,
          color: `${COUNTER} (brother: brInfoCounter, record 02 Colour pages)`, duplex: `${COUNTER} (brother: brInfoCounter, record 06 Duplex pages)`,
        },
      },
      supplies: [
        supply(1, 'Black Toner Cartridge', 'toner', 'black', 30, record('81', 'Black toner')),
        supply(2, 'Cyan Toner Cartridge', 'toner', 'cyan', 10, record('82', 'Cyan toner')),
        supply(7, 'Drum Unit', 'opc', null, 75, '1.3.6.1.2.1.43.11.1.1.9.1.7 (Printer-MIB: prtMarkerSuppliesLevel)'),
        supply(1105, 'Belt unit', 'transferUnit', null, 97, record('69', 'Belt unit')),
      ],
      trays: [], problems: [],
    },
  }]);
  const filter = encodeURIComponent(JSON.stringify(['serialNumber', '=', SERIAL]));
  id = ((await (await request.get(`/api/devices/page?page=5,1&filter-json=${filter}`, { headers })).json()).pageRows as { id: number }[])[0]!.id;
  await request.dispose();
});

async function card(page: Page) {
  await signIn(page);
  await page.goto(`/device/${id}`);
  // The card reads the device, its history and its forecasts: slow on a loaded machine.
  await expect(page.getByTestId('device-supplies')).toBeVisible({ timeout: 30_000 });
}

test.describe('in English', () => {
  test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  test('each supply says where its level came from; the counters which total is billed', async ({ page }) => {
    await card(page);
    await expect(page.getByTestId('supply-source-1')).toHaveText(`Level read from: the maker’s record brInfoMaintenance (brother profile), entry 81 “Black toner” (${MAINTENANCE})`);
    await expect(page.getByTestId('supply-source-7')).toHaveText('Level read from: Printer-MIB prtMarkerSuppliesLevel (1.3.6.1.2.1.43.11.1.1.9.1.7)');
    await page.screenshot({ path: test.info().outputPath('supply-sources-en.png'), fullPage: true });
    await page.getByRole('tab', { name: 'Detail' }).click();
    await expect(page.getByTestId('billed-total')).toHaveText(/^the maker’s own total; Printer-MIB total \(prtMarkerLifeCount\): 1,650$/);
    await expect(page.getByTestId('counter-source-total')).toContainText('entry 00 “Total pages”');
    await page.getByTestId('detail-counters').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('billed-total-en.png'), fullPage: true });
  });
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });
  test('the same in Russian', async ({ page }) => {
    await card(page);
    await expect(page.getByTestId('supply-source-1')).toHaveText(`Уровень получен из: запись производителя brInfoMaintenance (профиль brother), код 81 «Black toner» (${MAINTENANCE})`);
    await page.screenshot({ path: test.info().outputPath('supply-sources-ru.png'), fullPage: true });
    await page.getByRole('tab', { name: 'Подробно' }).click();
    await expect(page.getByTestId('billed-total')).toContainText('собственному итогу производителя; итог по Printer-MIB (prtMarkerLifeCount):');
    await page.screenshot({ path: test.info().outputPath('billed-total-ru.png'), fullPage: true });
  });
});
