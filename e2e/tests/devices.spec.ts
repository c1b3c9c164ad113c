import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Devices, consumables and service (issue 6): data written through the agent API (as an agent
 * sends it), the devices grid with its header filters and flags, the level bar's bands, ctrl-click
 * into a new tab, the card's tabs and charts, maintenance by selection and by file.
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
const MODEL = `E2E-${S}`;
const serial = (k: string) => `${S}${k}`;
const DAY = 86_400_000;

test.use({ locale: 'en-US', viewport: { width: 1500, height: 900 } });
test.describe.configure({ mode: 'serial' });

type Supply = { index: number; colorant: string; percent: number | null; state?: string | null };
type Printer = { k: string; ip: string; type: 'PRINTER' | 'MFP'; color: 'MONO' | 'COLOR'; paper: 'A4' | 'A3'; total: number; supplies: Supply[] };

const PRINTERS: Printer[] = [
  { k: 'HI', ip: '127.0.40.1', type: 'MFP', color: 'COLOR', paper: 'A3', total: 5000, supplies: [{ index: 1, colorant: 'black', percent: 80 }, { index: 2, colorant: 'cyan', percent: 30 }] },
  { k: 'LO', ip: '127.0.40.2', type: 'PRINTER', color: 'MONO', paper: 'A4', total: 1000, supplies: [{ index: 1, colorant: 'black', percent: 2 }] },
  { k: 'SR', ip: '127.0.40.3', type: 'PRINTER', color: 'MONO', paper: 'A4', total: 300, supplies: [{ index: 1, colorant: 'black', percent: null, state: 'SOME_REMAINING' }] },
];

function reading(p: Printer, day: number, ip = p.ip) {
  const total = p.total + day * 120;
  return {
    id: randomUUID(), runId: null, rangeId: null, ip, port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt: new Date(Date.now() - (5 - day) * DAY).toISOString(), profileId: 'generic', modelsVersion: 1,
      sysObjectID: '1.3.6.1.4.1.11.2.3.9.1', sysDescr: `Acme ${MODEL}`, vendor: 'Acme', model: MODEL, serialNumber: serial(p.k),
      macAddress: null, firmware: '2.1', hostName: `host-${p.k.toLowerCase()}`, location: 'Floor 2', isPrinter: true,
      deviceType: p.type, colorType: p.color, paperFormat: p.paper,
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
      counters: { total, totalUnit: 'impressions', powerOn: null, mono: total, color: null, a3: null, a4: total, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
      supplies: p.supplies.map((s) => ({
        index: s.index, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: `${s.colorant} toner`, colorant: s.colorant,
        partNumber: `PN-${s.colorant}`, partSerialNumber: null, unit: 'percent', level: s.percent === null ? -3 : Math.min(100, s.percent + (5 - day)),
        maxCapacity: 100, levelState: s.state ?? null, percent: s.percent === null ? null : Math.min(100, s.percent + (5 - day)),
      })),
      trays: [], problems: [],
    },
  };
}

const ids: Record<string, number> = {};

test.beforeAll(async ({ playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  // Six days of readings; the high printer moves to a new address on the last day.
  const readings = PRINTERS.flatMap((p) => [0, 1, 2, 3, 4, 5].map((d) => reading(p, d, p.k === 'HI' && d === 5 ? '127.0.40.9' : p.ip)));
  await sendReadings(request, headers, `E2E agent ${S}`, readings);
  const rows = (await (await request.get(`/api/devices/page?page=50,1&filter-json=${encodeURIComponent(JSON.stringify(['modelCode', '=', MODEL]))}`, { headers })).json()).pageRows as { id: number; serialNumber: string }[];
  for (const r of rows) ids[r.serialNumber.slice(S.length)] = r.id;
  expect(Object.keys(ids).sort()).toEqual(['HI', 'LO', 'SR']);
  await request.dispose();
});

const grid = (page: Page, key: string) => page.locator(`[data-grid-key="${key}"]`);
const bodyRows = (page: Page, key: string) => grid(page, key).locator('[role="rowgroup"] [role="row"][data-row-id]');

/** Types into a column's filter-row input and waits for the grid to settle. */
async function filterText(page: Page, key: string, column: string, value: string) {
  await grid(page, key).getByLabel(`Filter by ${column}`).fill(value);
}

test('the devices grid lists the devices with counters and flags; header filters narrow it', async ({ page }) => {
  await signIn(page);
  await page.goto('/devices');
  await filterText(page, 'gridDevices', 'Model', MODEL);
  await expect(bodyRows(page, 'gridDevices')).toHaveCount(3);
  const hi = grid(page, 'gridDevices').locator(`[data-row-id="${ids.HI}"]`);
  await expect(hi).toContainText(serial('HI'));
  await expect(hi).toContainText('127.0.40.9');
  await expect(hi).toContainText('Multifunction device');
  await expect(hi).toContainText('5,600');
  // The new-device flag as an icon with its tooltip.
  const flag = hi.locator('[data-flag="newDevice30Flag"]');
  await expect(flag).toBeVisible();
  await flag.hover();
  await expect(page.getByRole('tooltip')).toContainText('New: first seen in the last 30 days');
  await page.getByRole('heading', { name: 'Devices' }).hover();
  await expect(page.getByRole('tooltip')).toBeHidden();

  // Header filter on Type: multifunction devices only.
  await grid(page, 'gridDevices').getByRole('button', { name: 'Filter values: Type' }).click();
  await page.getByRole('checkbox', { name: 'Multifunction device' }).check();
  await expect(bodyRows(page, 'gridDevices')).toHaveCount(1);
  await expect(bodyRows(page, 'gridDevices').first()).toHaveAttribute('data-row-id', String(ids.HI));
  await page.keyboard.press('Escape');
  // Header filter on a flag: none of them is "not available".
  await grid(page, 'gridDevices').getByRole('button', { name: 'Filter values: Type' }).click();
  await page.getByRole('checkbox', { name: 'Multifunction device' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(bodyRows(page, 'gridDevices')).toHaveCount(3);
  await grid(page, 'gridDevices').getByRole('button', { name: 'Filter values: Not available' }).click();
  await page.getByRole('checkbox', { name: 'Yes' }).check();
  await expect(grid(page, 'gridDevices').getByTestId('grid-empty')).toBeVisible();
  await page.keyboard.press('Escape');
  await grid(page, 'gridDevices').getByRole('button', { name: 'Reset filter' }).click();
  await page.screenshot({ path: test.info().outputPath('devices.png') });
});

test('maintenance for the ticked devices', async ({ page }) => {
  await signIn(page);
  await page.goto('/devices');
  await filterText(page, 'gridDevices', 'Model', MODEL);
  await expect(bodyRows(page, 'gridDevices')).toHaveCount(3);
  for (const k of ['LO', 'SR']) await grid(page, 'gridDevices').locator(`[data-row-id="${ids[k]}"]`).getByRole('checkbox', { name: 'Select row' }).check();
  await expect(page.getByTestId('selected-count')).toHaveText('2 selected');
  await page.getByRole('button', { name: 'Disable maintenance' }).click();
  await expect(page.getByText('Maintenance disabled for 2 device(s)')).toBeVisible();
  await expect(page).toHaveURL(/\/devices$/);
  const lo = grid(page, 'gridDevices').locator(`[data-row-id="${ids.LO}"]`);
  await expect(lo.getByRole('checkbox', { name: 'Select row' })).not.toBeChecked();
  await grid(page, 'gridDevices').getByRole('button', { name: 'Filter values: Maintenance' }).click();
  await page.getByRole('checkbox', { name: 'No' }).check();
  await expect(bodyRows(page, 'gridDevices')).toHaveCount(2);
});

test('consumables: level bar bands, unknown states as words, reset filter, ctrl-click opens the device in a new tab', async ({ page, context }) => {
  await signIn(page);
  await page.goto('/consumables');
  await filterText(page, 'gridConsumables', 'Model', MODEL);
  await expect(bodyRows(page, 'gridConsumables')).toHaveCount(4);
  const g = grid(page, 'gridConsumables');
  await expect(g.locator('[data-band="HIGH"]')).toHaveAttribute('data-level', '80');
  await expect(g.locator('[data-band="MEDIUM"]')).toHaveAttribute('data-level', '30');
  const low = g.locator('[data-band="LOW"]');
  await expect(low).toHaveAttribute('data-level', '2');
  // Never narrower than 4 percent, in the low band's colour.
  await expect(low.locator('[data-width]')).toHaveAttribute('data-width', '4');
  const lowColor = await low.locator('[data-width]').evaluate((el) => getComputedStyle(el).backgroundColor);
  const highColor = await g.locator('[data-band="HIGH"] [data-width]').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(lowColor).not.toBe(highColor);
  await expect(g.locator('[data-level-state="SOME_REMAINING"]')).toHaveText('Some remaining');
  // A level's hint on hover, gone when the pointer leaves it.
  await low.hover();
  const hint = page.getByRole('tooltip');
  await expect(hint).toHaveText('Low: 2%');
  await expect(low).toHaveAttribute('aria-describedby', (await hint.getAttribute('id'))!);
  await page.getByRole('heading', { name: 'Consumables' }).hover();
  await expect(hint).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('consumables.png') });

  // Ctrl-click: the device opens in a new tab, this one stays.
  const [tab] = await Promise.all([context.waitForEvent('page'), g.locator(`[data-row-id="${ids.LO}-1"]`).click({ modifiers: ['Control'] })]);
  await tab.waitForLoadState();
  await expect(tab).toHaveURL(new RegExp(`/device/${ids.LO}$`));
  await expect(page).toHaveURL(/\/consumables$/);
  await tab.close();

  // Reset filter clears the filter row.
  await g.getByRole('button', { name: 'Reset filter' }).click();
  await expect(g.getByLabel('Filter by Model')).toHaveValue('');
  // A plain click opens the device here.
  await filterText(page, 'gridConsumables', 'Model', MODEL);
  await g.locator(`[data-row-id="${ids.SR}-1"]`).click();
  await expect(page).toHaveURL(new RegExp(`/device/${ids.SR}$`));
});

test('the device card: tabs, charts, edit with PUT, IP history, delete with confirmation', async ({ page }) => {
  await signIn(page);
  await page.goto(`/device/${ids.HI}`);
  await expect(page.getByRole('heading', { name: `Device: ${MODEL} · ${serial('HI')}` })).toBeVisible();
  await expect(page.getByTestId('device-general')).toContainText('Multifunction device');
  await expect(page.getByTestId('device-supplies').locator('[data-band]')).toHaveCount(2);
  // Charts of counters and supply levels from the six days of history.
  await expect(page.getByTestId('chart-pages').locator('.recharts-surface')).toBeVisible();
  await expect(page.getByTestId('chart-counters').locator('.recharts-line')).toHaveCount(1);
  await expect(page.getByTestId('chart-supplies').locator('.recharts-line')).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('device-card.png'), fullPage: true });

  // Edit and save; the value stays after a reload.
  await page.getByLabel('Inventory number').fill(`INV-${S}`);
  await page.getByLabel('Comment').fill('by the window');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved').or(page.getByText('Updated'))).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Inventory number')).toHaveValue(`INV-${S}`);

  await page.getByRole('tab', { name: 'Detail' }).click();
  await expect(page).toHaveURL(/tab=detail/);
  await expect(page.getByTestId('detail-network')).toContainText('127.0.40.9');
  await expect(page.getByTestId('detail-identity')).toContainText(`INV-${S}`);
  await expect(page.getByTestId('detail-status')).toContainText('by the window');
  await expect(page.getByTestId('detail-day-counters')).toContainText('120');

  await page.getByRole('tab', { name: 'IP history' }).click();
  const ip = grid(page, 'gridDeviceIpHistory');
  await expect(ip.locator('[role="rowgroup"] [role="row"][data-row-id]')).toHaveCount(2);
  await expect(ip).toContainText('127.0.40.1');
  await expect(ip).toContainText('still in use');

  await page.getByRole('tab', { name: 'User activity per day' }).click();
  await expect(grid(page, 'gridDeviceUserDays')).toBeVisible();

  // Delete, with confirmation.
  await page.goto(`/device/${ids.SR}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('confirm-dialog')).toContainText(serial('SR'));
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/devices$/);
  const headers = { Authorization: `Bearer ${await apiToken(page.request)}` };
  expect((await page.request.get(`/api/devices/${ids.SR}`, { headers })).status()).toBe(404);
});

test('service: maintenance by a .txt of serials reports what was not found or not read; stop for all asks first', async ({ page }) => {
  await signIn(page);
  await page.goto('/service');
  const uploader = page.getByTestId('uploader-set-active-status');
  await uploader.locator('input[type="file"]').setInputFiles({
    name: 'serials.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(`${serial('LO')}\nNOPE${S}\nnot a serial!\n`),
  });
  await expect(uploader.getByTestId('service-result')).toHaveText(
    `Maintenance enabled for 1 of 1 device(s) found. Not found (1): NOPE${S}. Lines that are not serial numbers (1): 3.`,
  );
  await uploader.locator('input[type="file"]').setInputFiles({ name: 'serials.csv', mimeType: 'text/csv', buffer: Buffer.from('x\n') });
  await expect(uploader.getByTestId('service-result')).toHaveText('Only .txt files are accepted');
  await page.screenshot({ path: test.info().outputPath('service.png') });

  await page.getByRole('button', { name: 'Stop maintenance for all devices' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop maintenance' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Stop maintenance for every device in your locations?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
