import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiToken, createOperator, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Reports (issue 17): readings of last month sent through the agent API, the reports list, the
 * counters report with every period rule, its grid, chart, column chooser and both exports,
 * availability, replacements and installed consumables, the schedule button by grant, and the
 * screens in Russian.
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
const MODEL = `RPT-${S}`;
const DAY = 86_400_000;

test.use({ locale: 'en-US', viewport: { width: 1500, height: 1000 } });
test.describe.configure({ mode: 'serial' });

// Last month in UTC, and the days the printers were read: the day before it (the base), four of its days, and today.
const now = new Date();
const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0);
const ddmmyyyy = (t: number) => new Date(t).toISOString().slice(0, 10).split('-').reverse().join('.');
const at = (t: number) => new Date(t + 12 * 3_600_000).toISOString();
const DAYS = [monthStart - DAY, monthStart, monthStart + 9 * DAY, monthStart + 19 * DAY, monthStart + 24 * DAY];

// P1 counts forward (250 black-and-white and 60 colour pages in the month) and has its toner
// replaced on the 20th; P2 gets a new board on the 20th (its counters start again): 300 pages.
const PRINTERS = [
  { k: 'P1', ip: '127.0.41.1', type: 'MFP', color: 'COLOR', mono: [1000, 1100, 1180, 1250, 1250], colour: [100, 110, 130, 160, 160], toner: [70, 60, 40, 20, 100] },
  { k: 'P2', ip: '127.0.41.2', type: 'PRINTER', color: 'MONO', mono: [5000, 5100, 5200, 30, 130], colour: null, toner: [80, 78, 76, 74, 72] },
] as const;

function reading(p: (typeof PRINTERS)[number], i: number, readAt: string) {
  const mono = p.mono[i];
  const color = p.colour ? p.colour[i] : null;
  const total = mono + (color ?? 0);
  return {
    id: randomUUID(), runId: null, rangeId: null, ip: p.ip, port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt, profileId: 'generic', modelsVersion: 1,
      sysObjectID: '1.3.6.1.4.1.11.2.3.9.1', sysDescr: `Acme ${MODEL}`, vendor: 'Acme', model: MODEL, serialNumber: `${S}${p.k}`,
      macAddress: null, firmware: '1.0', hostName: `rpt-${p.k.toLowerCase()}`, location: 'Floor 3', isPrinter: true,
      deviceType: p.type, colorType: p.color, paperFormat: 'A4',
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
      counters: { total, totalUnit: 'impressions', powerOn: null, mono, color, a3: null, a4: total, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
      supplies: [{
        index: 1, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: 'black toner', colorant: 'black',
        partNumber: 'PN-black', partSerialNumber: null, unit: 'percent', level: p.toner[i], maxCapacity: 100, levelState: null, percent: p.toner[i],
      }],
      trays: [], problems: [],
    },
  };
}

let page: Page;

test.beforeAll(async ({ browser, playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  await sendReadings(request, headers, `E2E reports ${S}`, DAYS.flatMap((d, i) => PRINTERS.map((p) => reading(p, i, at(d)))));
  await request.dispose();
  page = await browser.newPage();
  await signIn(page);
});
test.afterAll(() => page.close());

const grid = (key: string) => page.locator(`[data-grid-key="${key}"]`);
const rowOf = (key: string, serial: string) => grid(key).locator('[role="row"][data-row-id]', { hasText: serial });
const field = (name: string) => page.getByRole('textbox', { name, exact: true });
const combobox = (name: string) => page.getByRole('combobox', { name, exact: true });

/** Narrows a report's grid to this run's printers (the server holds other files' devices too). */
async function onlyOurs(key: string) {
  const filter = grid(key).getByRole('textbox', { name: 'Filter by Model' });
  await filter.fill(MODEL);
  await filter.press('Enter');
}

test('the reports list, and the counters report: period rules, grid, chart, columns and both exports', async () => {
  await page.goto('/reports');
  const list = page.getByTestId('report-types');
  await expect(list.getByRole('link')).toHaveText(['Device availability', 'Device counters', 'Consumable replacements', 'Installed consumables', 'Meter reads']);
  await list.getByRole('link', { name: 'Device counters' }).click();
  await expect(page).toHaveURL(/\/report\/2$/);
  await expect(page.getByRole('heading', { name: 'Device counters' })).toBeVisible();

  // Section 4: the default is the last month; export waits for rows.
  await expect(combobox('Period')).toHaveValue('Last month');
  await expect(field('From')).toHaveValue(ddmmyyyy(monthStart));
  await expect(field('To')).toHaveValue(ddmmyyyy(monthEnd));
  await expect(page.getByRole('button', { name: 'CSV' })).toBeDisabled();
  await expect(page.getByTestId('report-not-applied')).toBeVisible();

  // Choosing a type sets the dates; editing one turns the type to chosen dates; from after to swaps them.
  await combobox('Period').click();
  await page.getByRole('option', { name: 'Last year' }).click();
  await expect(field('From')).toHaveValue(`01.01.${now.getUTCFullYear() - 1}`);
  await expect(field('To')).toHaveValue(`31.12.${now.getUTCFullYear() - 1}`);
  await field('From').fill(`15.01.${now.getUTCFullYear()}`);
  await field('From').blur();
  await expect(combobox('Period')).toHaveValue('Chosen dates');
  await expect(field('From')).toHaveValue(`31.12.${now.getUTCFullYear() - 1}`);
  await expect(field('To')).toHaveValue(`15.01.${now.getUTCFullYear()}`);
  await combobox('Period').click();
  await page.getByRole('option', { name: 'Last month' }).click();
  await expect(field('From')).toHaveValue(ddmmyyyy(monthStart));

  await page.getByRole('button', { name: 'Apply' }).click();
  const key = 'gridReportDeviceCounters';
  await onlyOurs(key);
  const p1 = rowOf(key, `${S}P1`);
  const p2 = rowOf(key, `${S}P2`);
  // Pages are the sum of the forward steps: P2's new board adds nothing and is named.
  await expect(p1).toContainText('1,000');
  await expect(p1).toContainText('250');
  await expect(p1).toContainText('60');
  await expect(p2).toContainText('300');
  await expect(p2).toContainText('Reset: black-and-white, total, A4');
  await expect(page.getByTestId('report-chart')).toContainText('Pages per location and month');
  await expect(page.getByTestId('report-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('report-counters.png'), fullPage: true });

  // The column chooser: the file holds the visible columns in their order.
  await grid(key).getByRole('button', { name: 'Choose columns' }).click();
  await page.getByTestId('grid-column-chooser').getByRole('checkbox', { name: 'IP', exact: true }).uncheck();
  await page.keyboard.press('Escape');
  await expect(grid(key).getByRole('columnheader', { name: 'IP', exact: true })).toHaveCount(0);

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
  await expect(page.getByText('File generation started')).toBeVisible();
  expect(csv.suggestedFilename()).toBe('Device counters.csv');
  const text = readFileSync(await csv.path(), 'utf8');
  const [head, ...lines] = text.replace(/^\uFEFF/, '').trim().split('\r\n');
  // Headed with the grid's column names in the console's language (issue 43).
  expect(head).toBe('Location,Model,Serial number,B/W at start,B/W at end,B/W pages,Colour at start,Colour at end,Colour pages,Total pages,Counter reset');
  expect(lines.find((l) => l.includes(`${S}P2`))).toMatch(/,5000,130,300,,,,300,"bw,total,a4"$/);

  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'XLSX' }).click()]);
  expect(xlsx.suggestedFilename()).toBe('Device counters.xlsx');
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await xlsx.path());
  const sheet = book.worksheets[0];
  expect(sheet.getRow(1).getCell(3).value).toBe('Serial number');
  const row = sheet.getRows(2, sheet.rowCount - 1)!.find((r) => r.getCell(3).value === `${S}P1`)!;
  expect(row.getCell(6).value).toBe(250);

  // Leaving keeps the filter, the results and the grid's columns.
  await page.getByRole('link', { name: 'Reports' }).first().click();
  await expect(page).toHaveURL(/\/reports$/);
  await page.goBack();
  await expect(combobox('Period')).toHaveValue('Last month');
  await expect(rowOf(key, `${S}P1`)).toContainText('250');
  await expect(grid(key).getByRole('columnheader', { name: 'IP', exact: true })).toHaveCount(0);
});

test('availability, replacements and installed consumables; the schedule button opens a REPORT notification', async () => {
  await page.goto('/report/1');
  await page.getByRole('button', { name: 'Apply' }).click();
  await onlyOurs('gridReportDeviceAvailability');
  // Read on 4 days of the month, working each time.
  const days = new Date(monthEnd).getUTCDate();
  await expect(rowOf('gridReportDeviceAvailability', `${S}P1`)).toContainText(`${(Math.round((4 * 1000) / days) / 10).toLocaleString('en-US')} %`);
  await expect(page.getByTestId('report-chart')).toContainText('Devices read and working per day');

  await page.goto('/report/3');
  await page.getByRole('button', { name: 'Apply' }).click();
  await onlyOurs('gridReportPartReplacements');
  await expect(rowOf('gridReportPartReplacements', `${S}P1`)).toContainText('PN-black');
  await expect(rowOf('gridReportPartReplacements', `${S}P2`)).toHaveCount(0);

  // Installed consumables: no period; today's dates, disabled, and none in the request.
  await page.goto('/report/4');
  await expect(combobox('Period')).toBeDisabled();
  await expect(field('From')).toBeDisabled();
  await expect(field('From')).toHaveValue(ddmmyyyy(Date.now()));
  const [request] = await Promise.all([page.waitForRequest(/\/api\/reports\/installed-consumables/), page.getByRole('button', { name: 'Apply' }).click()]);
  // A fleet's supplies are read a page at a time: the grid asks the server for its page.
  expect(new URL(request.url()).pathname).toBe('/api/reports/installed-consumables/page');
  const params = new URL(request.url()).searchParams;
  expect(params.has('from') || params.has('to')).toBe(false);
  await onlyOurs('gridReportInstalledConsumables');
  await expect(rowOf('gridReportInstalledConsumables', `${S}P2`)).toContainText('PN-black');
  await expect(page.getByTestId('report-count')).toHaveText('Rows: 2');
  await expect(page.getByRole('button', { name: 'CSV' })).toBeEnabled();
  await page.screenshot({ path: test.info().outputPath('report-installed.png'), fullPage: true });

  await page.goto('/report/2');
  await page.getByRole('button', { name: 'Schedule by e-mail' }).click();
  await expect(page).toHaveURL(/\/notification\/-1\?type=REPORT&report=DEVICE_COUNTERS$/);
  await expect(combobox('Notification type')).toHaveValue('Report');
  await expect(combobox('Report')).toHaveValue('Device counters');
});

test('in Russian, for an operator: the same report, without the schedule button', async ({ browser, playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const operator = await createOperator(request);
  await request.dispose();
  const ru = await openAs(browser, operator.login, operator.password, 'ru-RU');
  try {
    await ru.goto('/report/2');
    await expect(ru.getByRole('heading', { name: 'Счётчики устройств' })).toBeVisible();
    await expect(ru.getByRole('combobox', { name: 'Период', exact: true })).toHaveValue('Прошлый месяц');
    await expect(ru.getByRole('button', { name: 'Рассылка по почте' })).toHaveCount(0);
    await ru.getByRole('button', { name: 'Применить' }).click();
    const filter = ru.locator('[data-grid-key="gridReportDeviceCounters"]').getByRole('textbox', { name: 'Фильтр: Модель' });
    await filter.fill(MODEL);
    await filter.press('Enter');
    await expect(ru.locator('[role="row"][data-row-id]', { hasText: `${S}P2` })).toContainText('Сброс: чёрно-белый, общий, A4');
    await expect(ru.getByTestId('report-chart')).toContainText('Страницы по расположениям и месяцам');
    await ru.screenshot({ path: info.outputPath('report-counters-ru.png'), fullPage: true });
    await ru.goto('/reports');
    await expect(ru.getByTestId('report-types').getByRole('link')).toHaveText(['Доступность устройств', 'Счётчики устройств', 'Замены расходных материалов', 'Установленные расходные материалы', 'Показания счётчиков']);
  } finally {
    await ru.context().close();
  }
});

async function openAs(browser: Browser, login: string, password: string, locale: string) {
  const context = await browser.newContext({ locale, viewport: { width: 1500, height: 1000 } });
  const p = await context.newPage();
  await signIn(p, login, password);
  return p;
}
