import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, defaultLocation, printerRecord, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Contracts and billing runs (issue 54): a contract made on the console screen and edited (a
 * field refused with its message, an end date, a price for large pages), a printer put on it by
 * serial and leaving on the period's last day, the last month billed, its flagged read reviewed, the run closed and its ERP
 * meter-import file downloaded. In English, then the same in Russian on a second printer (the
 * session carried over: one sign-in).
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
const serial = (k: string) => `BL${S}${k}`;
const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
/** A day as the console writes it (spec section 9: dd.MM.yyyy). */
const shown = (day: string) => day.split('-').reverse().join('.');
/** A day typed as a user types it, DD.MM.YYYY, its calendar closed again. */
async function typeDay(p: Page, testId: string, day: string) {
  const input = p.getByTestId(testId);
  await input.fill(shown(day));
  await input.press('Escape');
  await expect(input).toHaveValue(shown(day));
}
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

type Words = { closed: string; review: string; badCurrency: string; badLeave: string; large: string; refused: string; leftTo: string };

/**
 * Makes a contract of the printer, edits it (a bad currency refused with its message, then a
 * name, an end date and a price for large pages), bills last month with the printer leaving on
 * its last day, reviews its flag, closes the run, downloads its ERP file, and is refused the
 * delete of a contract with a closed run.
 */
async function billPrinter(p: Page, k: 'EN' | 'RU', words: Words) {
  await p.getByTestId('contract-new').click();
  await p.getByTestId('contract-name').fill(`Contract ${S} ${k}`);
  await p.getByTestId('contract-location').click();
  await p.getByRole('option', { name: locationName, exact: true }).click();
  await p.getByTestId('contract-fee').fill('50.00');
  await typeDay(p, 'contract-starts', periodFrom);
  await p.getByTestId('contract-save').click();
  await expect(p.getByTestId('contracts-table')).toContainText(`Contract ${S} ${k}`);

  // Edited: every field is the form's; a wrong one is refused with its message before anything is sent.
  await p.getByTestId('contract-edit').click();
  const form = p.getByTestId('contract-form');
  await p.getByTestId('contract-currency').fill('euro');
  await p.getByTestId('contract-save').click();
  await expect(form).toContainText(words.badCurrency);
  await p.getByTestId('contract-currency').fill('EUR');
  await p.getByTestId('contract-name').fill(`Contract ${S} ${k} edited`);
  await typeDay(p, 'contract-ends', '2099-12-31');
  await p.getByTestId('price-add').click();
  await p.getByTestId('price-meter-2').click();
  await p.getByRole('option', { name: words.large, exact: true }).click();
  await p.getByTestId('price-value-2').fill('0.02');
  await p.getByTestId('price-included-2').fill('100');
  await p.screenshot({ path: test.info().outputPath(`contract-form-${k}.png`), fullPage: true });
  await p.getByTestId('contract-save').click();
  await expect(form).toBeHidden();
  await expect(p.getByTestId('contracts-table')).toContainText(`Contract ${S} ${k} edited`);
  await expect(p.getByTestId('contract-summary-prices')).toContainText(`${words.large}: 0.02 EUR`);

  await p.getByTestId('device-serial').fill(serial(k));
  await typeDay(p, 'device-joined', periodFrom);
  await p.getByTestId('device-add').click();
  await expect(p.getByTestId('contract-devices')).toContainText(serial(k));
  if (k === 'EN') {
    // The other printer put on by mistake is removed, after a confirmation; this one stays.
    const wrong = serial('RU');
    await p.getByTestId('device-serial').fill(wrong);
    await typeDay(p, 'device-joined', periodFrom);
    await p.getByTestId('device-add').click();
    await expect(p.getByTestId(`contract-device-${wrong}`)).toBeVisible();
    await p.getByTestId(`device-remove-${wrong}`).click();
    await p.getByTestId('confirm-dialog').getByRole('button').last().click();
    await expect(p.getByTestId(`contract-device-${wrong}`)).toHaveCount(0);
    await expect(p.getByTestId('contract-devices')).toContainText(serial(k));
  }
  // The printer leaves on the period's last day: a day before it joined is refused, then the day is kept.
  await p.getByTestId(`device-edit-${serial(k)}`).click();
  await typeDay(p, 'device-change-left', iso(opening));
  await p.getByTestId('device-change-save').click();
  await expect(p.getByTestId('contract-devices')).toContainText(words.badLeave);
  await typeDay(p, 'device-change-left', iso(periodEnd));
  await p.getByTestId('device-change-save').click();
  await expect(p.getByTestId(`contract-device-${serial(k)}`)).toContainText(words.leftTo.replace('{from}', shown(periodFrom)).replace('{to}', shown(iso(periodEnd))));

  await typeDay(p, 'run-period', periodFrom);
  await p.getByTestId('run-make').click();
  const panel = p.getByTestId('run-panel');
  await expect(panel.getByTestId('run-devices')).toContainText(serial(k));
  // Black 500 pages at 0.01 and colour 50 at 0.05: 7.50 (the printer counts no large pages).
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

  // A contract with a closed run is kept: the delete is asked, then refused with the server's reason.
  await p.getByTestId('contract-delete').click();
  await p.getByTestId('confirm-dialog').getByRole('button', { name: words.refused.split('|')[0], exact: true }).click();
  await expect(p.getByTestId('contract-delete-error')).toContainText(words.refused.split('|')[1]!);
  await p.screenshot({ path: test.info().outputPath(`contract-refused-${k}.png`) });
  await expect(p.getByTestId('contracts-table')).toContainText(`Contract ${S} ${k} edited`);
}

test('makes a contract, bills last month, reviews the flag, closes the run and downloads its ERP file', async () => {
  await page.locator('[data-menu="contracts"]').click();
  await expect(page).toHaveURL(/\/contracts$/);
  await billPrinter(page, 'EN', {
    closed: 'Closed', review: 'Reviewed by admin', badCurrency: 'A three-letter currency code', badLeave: 'The end must not come before the start', large: 'Large',
    refused: 'Delete contract|has closed billing runs (1)', leftTo: '{from} to {to}',
  });
  // A contract with no closed run is deleted once confirmed.
  await page.getByTestId('contract-new').click();
  await page.getByTestId('contract-name').fill(`Short-lived ${S}`);
  await page.getByTestId('contract-location').click();
  await page.getByRole('option', { name: locationName, exact: true }).click();
  await page.getByTestId('contract-save').click();
  await expect(page.getByTestId('contract-summary')).toContainText(`Short-lived ${S}`);
  await page.getByTestId('contract-delete').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete contract', exact: true }).click();
  await expect(page.getByTestId('contracts-table')).not.toContainText(`Short-lived ${S}`);
});

test('the same in Russian', async ({ browser }) => {
  const ru = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1440, height: 900 }, acceptDownloads: true, storageState: await page.context().storageState() });
  const p = await ru.newPage();
  await p.goto('/contracts');
  await expect(p.getByRole('heading', { name: 'Договоры' })).toBeVisible();
  await billPrinter(p, 'RU', {
    closed: 'Закрыт', review: 'Проверил admin', badCurrency: 'Трёхбуквенный код валюты', badLeave: 'Конец не может быть раньше начала', large: 'Крупный формат',
    refused: 'Удалить договор|есть закрытые расчёты (1)', leftTo: 'с {from} по {to}',
  });
  await ru.close();
});
