import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, printerRecord, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Supplies to order (issue 45): a low toner is on the what-to-order list; ordered from it, the
 * order shows on the device card, and the device's report of the toner replaced closes it. In
 * English, then the same in Russian on a second printer (the session carried over: one sign-in).
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
const serial = (k: string) => `SO${S}${k}`;

const reading = (k: string, ip: string, percent: number, total: number, at: Date) => printerRecord(ip, at, { total, mono: total, color: null }, {
  sysDescr: 'Acme SO', model: `SO-${S}`, serialNumber: serial(k), hostName: `so-${k}`, location: 'Floor 3', deviceType: 'PRINTER', colorType: 'MONO',
  supplies: [{ index: 1, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: 'black toner', colorant: 'black', partNumber: `TN-${S}${k}`, partSerialNumber: null, unit: 'percent', level: percent, maxCapacity: 100, levelState: null, percent }],
});

let request: APIRequestContext;
let headers: Record<string, string>;
let page: Page;
const ids: Record<string, number> = {};
const PRINTERS = { EN: '127.0.45.1', RU: '127.0.45.2' } as const;

test.beforeAll(async ({ browser, playwright }, info) => {
  request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const hourAgo = new Date(Date.now() - 3_600_000);
  await sendReadings(request, headers, `E2E orders ${S}`, Object.entries(PRINTERS).map(([k, ip]) => reading(k, ip, 4, 1000, hourAgo)));
  const rows = (await (await request.get(`/api/devices/page?page=10,1&filter-json=${encodeURIComponent(JSON.stringify(['modelCode', '=', `SO-${S}`]))}`, { headers })).json()).pageRows as { id: number; serialNumber: string }[];
  for (const r of rows) ids[r.serialNumber.slice(-2)] = r.id;
  page = await (browser as Browser).newPage({ locale: 'en-US', viewport: { width: 1500, height: 950 } });
  await signIn(page);
});
test.afterAll(async () => {
  await page.close();
  await request.dispose();
});

/** Orders the printer's toner from the list, checks the card, then has the printer report it replaced. */
async function orderAndReplace(p: Page, k: 'EN' | 'RU', words: { order: string; ordered: string }) {
  await p.goto('/supply-orders');
  const line = p.getByTestId('supply-suggestions').locator('tr', { hasText: serial(k) });
  await expect(line).toContainText(`TN-${S}${k}`);
  // The supply's type in words, not its SNMP code (toner).
  await expect(line).toContainText(k === 'RU' ? 'Тонер' : 'Toner');
  await line.getByTestId('order-line').click();
  await p.getByTestId('order-form').getByRole('textbox').fill(`PO-${k}`);
  await p.getByTestId('order-submit').click();
  await expect(p.getByTestId('supply-orders').locator('tr', { hasText: serial(k) })).toContainText(words.ordered);
  await expect(p.getByTestId('supply-suggestions').locator('tr', { hasText: serial(k) })).toHaveCount(0);

  await p.goto(`/device/${ids[k]}`);
  await expect(p.getByTestId('device-supplies').getByTestId('supply-order-state')).toHaveText(words.ordered);

  await sendReadings(request, headers, `E2E orders ${S} ${k}`, [reading(k, PRINTERS[k], 97, 1100, new Date())]);
  const [order] = (await (await request.get(`/api/supply-orders?device=${ids[k]}&open=false`, { headers })).json()) as { state: string; reference: string }[];
  expect(order).toMatchObject({ state: 'INSTALLED', reference: `PO-${k}` });
  await p.reload();
  await expect(p.getByTestId('device-supplies')).toBeVisible();
  await expect(p.getByTestId('device-supplies').getByTestId('supply-order-state')).toHaveCount(0);
}

test('orders a low toner from the list; the card shows the order; the replacement closes it', async () => {
  await page.locator('[data-menu="supplyOrders"]').click();
  await expect(page).toHaveURL(/\/supply-orders$/);
  await orderAndReplace(page, 'EN', { order: 'Order', ordered: 'Ordered' });
});

test('the same in Russian', async ({ browser }) => {
  const ru = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1500, height: 950 }, storageState: await page.context().storageState() });
  const p = await ru.newPage();
  await p.goto('/supply-orders');
  await expect(p.getByRole('heading', { name: 'Заказ расходников' })).toBeVisible();
  await orderAndReplace(p, 'RU', { order: 'Заказать', ordered: 'Заказан' });
  await ru.close();
});
