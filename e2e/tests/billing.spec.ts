import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, defaultLocation, printerRecord, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Contracts and billing runs (issue 54): a contract made on the console screen, a printer put on
 * it by serial, the last month billed, its flagged read reviewed, the run closed and its ERP
 * meter-import file downloaded. In English, then the same in Russian on a second printer (the
 * session carried over: one sign-in).
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
const serial = (k: string) => `BL${S}${k}`;
const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const now = new Date();
/** Last month: from its first day; read the day before it and on its last day. */
const periodFrom = iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
const periodEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - DAY / 2);
const opening = new Date(Date.parse(`${periodFrom}T12:00:00Z`) - DAY);

const reading = (k: string, ip: string, at: Date, total: number, mono: number, color: number) => printerRecord(ip, at, { total, mono, color }, {
  sysDescr: 'Acme BL', model: `BL-${S}`, serialNumber: serial(k), hostName: `bl-${k}`, location: 'Floor 2', deviceType: 'MFP', colorType: 'COLOR',
});

let request: APIRequestContext;
let page: Page;
let locationName: string;
const PRINTERS = { EN: '127.0.54.1', RU: '127.0.54.2' } as const;

test.beforeAll(async ({ browser, playwright }, info) => {
  request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  // Opening 1000 pages (800 black, 200 colour); closing 1500, whose black plus colour (1300 + 250) is not the total: a flag to review.
  await sendReadings(request, headers, `E2E billing ${S}`, Object.entries(PRINTERS).flatMap(([k, ip]) => [reading(k, ip, opening, 1000, 800, 200), reading(k, ip, periodEnd, 1500, 1300, 250)]));
  const { id } = await defaultLocation(request, headers);
  const rows = ((await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; name: string }[] }).pageRows;
  locationName = rows.find((l) => l.id === id)!.name;
  page = await (browser as Browser).newPage({ locale: 'en-US', viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await signIn(page);
});
test.afterAll(async () => {
  await page.close();
  await request.dispose();
});

/** Makes a contract of the printer, bills last month, reviews its flag, closes the run and downloads its ERP file. */
async function billPrinter(p: Page, k: 'EN' | 'RU', words: { closed: string; review: string }) {
  await p.getByTestId('contract-name').fill(`Contract ${S} ${k}`);
  await p.getByTestId('contract-location').click();
  await p.getByRole('option', { name: locationName, exact: true }).click();
  await p.getByTestId('contract-fee').fill('50.00');
  await p.getByTestId('contract-starts').fill(periodFrom);
  await p.getByTestId('contract-create').click();
  await expect(p.getByTestId('contracts-table')).toContainText(`Contract ${S} ${k}`);
  await p.getByTestId('device-serial').fill(serial(k));
  await p.getByTestId('device-joined').fill(periodFrom);
  await p.getByTestId('device-add').click();
  await expect(p.getByTestId('contract-devices')).toContainText(serial(k));
  await p.getByTestId('run-period').fill(periodFrom);
  await p.getByTestId('run-make').click();
  const panel = p.getByTestId('run-panel');
  await expect(panel.getByTestId('run-devices')).toContainText(serial(k));
  // Black 500 pages at 0.01 and colour 50 at 0.05: 7.50.
  await expect(panel.getByTestId('run-devices')).toContainText('7.50');
  await expect(panel.getByTestId('run-close')).toBeDisabled();
  await panel.getByTestId(`review-note-${serial(k)}`).fill('Checked on site');
  await panel.getByTestId(`review-${serial(k)}`).click();
  await expect(panel).toContainText(words.review);
  await panel.getByTestId('run-close').click();
  await expect(panel.getByTestId('run-state')).toHaveText(words.closed);
  await p.screenshot({ path: test.info().outputPath(`contracts-${k}.png`), fullPage: true });
  const [download] = await Promise.all([p.waitForEvent('download'), panel.getByTestId('run-file-erp').click()]);
  const text = await readFile((await download.path())!, 'utf8');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe('equipment_id,serial_number,meter,meter_code,read,read_date,source');
  expect(lines).toContain(`,${serial(k)},mono,,1300,${iso(periodEnd)},READ`);
  expect(lines).toContain(`,${serial(k)},color,,250,${iso(periodEnd)},READ`);
}

test('makes a contract, bills last month, reviews the flag, closes the run and downloads its ERP file', async () => {
  await page.locator('[data-menu="contracts"]').click();
  await expect(page).toHaveURL(/\/contracts$/);
  await billPrinter(page, 'EN', { closed: 'Closed', review: 'Reviewed by admin' });
});

test('the same in Russian', async ({ browser }) => {
  const ru = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1440, height: 900 }, acceptDownloads: true, storageState: await page.context().storageState() });
  const p = await ru.newPage();
  await p.goto('/contracts');
  await expect(p.getByRole('heading', { name: 'Договоры' })).toBeVisible();
  await billPrinter(p, 'RU', { closed: 'Закрыт', review: 'Проверил admin' });
  await ru.close();
});
