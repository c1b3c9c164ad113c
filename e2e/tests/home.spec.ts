import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminHeaders, defaultLocation, signIn } from './shell-helpers.ts';

/**
 * Home (issue 21): an operator of one location sees that location's figures only, in English;
 * a figure opens its grid filtered the same way; a paper jam reported by the agent appears
 * without a reload; the administrator sees home in Russian.
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
test.use({ viewport: { width: 1400, height: 1000 } });
test.describe.configure({ mode: 'serial' });

let agentHeaders: Record<string, string>;
let operator: { login: string; password: string };

function reading(k: string, ip: string, toner: number, errors: string[] = []) {
  return {
    id: randomUUID(), runId: null, rangeId: null, ip, port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'generic', modelsVersion: 1,
      sysObjectID: '1.3.6.1.4.1.11.2.3.9.1', sysDescr: 'Acme Home 1', vendor: 'Acme', model: `HOME-${S}`, serialNumber: `${S}${k}`,
      macAddress: null, firmware: '1.0', hostName: `home-${k}`, location: 'Floor 2', isPrinter: true,
      deviceType: 'PRINTER', colorType: 'MONO', paperFormat: 'A4',
      status: { deviceStatus: 'running', printerStatus: 'idle', errors, errorStateHex: '00' },
      counters: { total: 1000, totalUnit: 'impressions', powerOn: null, mono: 1000, color: null, a3: null, a4: 1000, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
      supplies: [{
        index: 1, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: 'black toner', colorant: 'black',
        partNumber: 'PN-black', partSerialNumber: null, unit: 'percent', level: toner, maxCapacity: 100, levelState: null, percent: toner,
      }],
      trays: [], problems: [],
    },
  };
}

async function send(request: APIRequestContext, readings: unknown[]) {
  const res = await request.post('/api/agent/readings', { headers: agentHeaders, data: { batchId: randomUUID(), readings } });
  expect(res.status(), await res.text()).toBe(200);
}

test.beforeAll(async ({ playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const headers = await adminHeaders(request);
  // A location of its own, its agent with three printers (one of them out of toner), and its operator.
  const parentId = (await defaultLocation(request, headers)).id;
  const loc = await request.post('/api/dictionary-items', { headers, data: { dictionaryId: 1, code: `HOME${S}`, name: `Home site ${S}`, parentId } });
  expect(loc.status(), await loc.text()).toBe(200);
  const locationId = ((await loc.json()) as { id: number }).id;
  const agent = await request.post('/api/agents', { headers, data: { name: `Home agent ${S}`, location: { id: locationId } } });
  expect(agent.status(), await agent.text()).toBe(200);
  agentHeaders = { Authorization: `Bearer ${((await agent.json()) as { token: string }).token}` };
  await send(request, [reading('P1', '127.0.42.1', 80), reading('P2', '127.0.42.2', 60), reading('P3', '127.0.42.3', 0)]);
  const roles = (await (await request.get('/api/managed-roles-v/', { headers })).json()) as { pageRows: { id: number; code: string }[] };
  operator = { login: `homeop${S.toLowerCase()}`, password: 'Operator-pass1' };
  const user = await request.post('/api/users', {
    headers,
    data: {
      login: operator.login, email: `${operator.login}@example.com`, passwordHash: operator.password, lastName: 'Home', firstName: 'Olga',
      activeFlag: true, locations: [{ id: locationId }], grants: [{ id: roles.pageRows.find((r) => r.code === 'OPERATOR')!.id }],
    },
  });
  expect(user.status(), await user.text()).toBeLessThan(300);
  await request.dispose();
});

test('an operator sees their location\'s figures, opens a filtered grid, and sees a jam arrive live', async ({ browser, playwright }, info) => {
  const page = await browser.newPage({ locale: 'en-US' });
  await signIn(page, operator.login, operator.password);
  await expect(page.getByText('Devices: 3', { exact: true })).toBeVisible();
  await expect(page.locator('[data-home-figure="status-OK"]')).toContainText('3');
  await expect(page.locator('[data-home-figure="empty"]')).toContainText('1');
  // Agents are not the operator's to see.
  await expect(page.getByTestId('home-agents')).toHaveCount(0);
  await expect(page.getByTestId('home-attention')).toContainText('No device needs attention');
  // The pages chart (its library a chunk of its own, loaded when home has pages to show) draws.
  await expect(page.getByTestId('home-pages').locator('.recharts-surface')).toBeVisible();

  // "Empty now" opens the consumables grid with the same filter: P3's toner only.
  await page.locator('[data-home-figure="empty"]').click();
  await expect(page).toHaveURL(/\/consumables$/);
  const rows = page.locator('[data-grid-key="gridConsumables"] [role="row"][data-row-id]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${S}P3`);
  await page.goBack();
  await expect(page).toHaveURL(/\/home$/);

  // P1 jams: the agent's reading reaches home through the live events, with no reload.
  await expect(page.getByText('Devices: 3', { exact: true })).toBeVisible();
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  await send(request, [reading('P1', '127.0.42.1', 79, ['jammed'])]);
  await request.dispose();
  const attention = page.getByTestId('home-attention');
  await expect(attention).toContainText(`${S}P1`);
  await expect(attention).toContainText('Paper jam');
  await expect(page.locator('[data-home-figure="status-ERROR"]')).toContainText('1');

  // The server fails to answer a refresh: home keeps the last figures and says what went wrong.
  await page.route('**/api/home', (route) => route.fulfill({ status: 503, json: { code: 'UNAVAILABLE', message: 'The database does not answer' } }));
  await page.locator('[data-home-figure="empty"]').click();
  await expect(page).toHaveURL(/\/consumables$/);
  await page.goBack();
  await expect(page.getByText('The database does not answer')).toBeVisible();
  await expect(page.getByText('Devices: 3', { exact: true })).toBeVisible();
  await page.close();
});

test('the administrator sees home in Russian', async ({ browser }) => {
  const page = await browser.newPage({ locale: 'ru-RU' });
  await signIn(page);
  await expect(page.getByText(/^Устройства: \d+$/)).toBeVisible();
  await expect(page.locator('[data-home-figure="status-OK"]')).toContainText('Работают');
  await expect(page.getByTestId('home-attention')).toContainText('Требуют внимания');
  await expect(page.locator('[data-home-figure="empty"]')).toContainText('Закончились');
  await expect(page.getByTestId('home-agents')).toContainText('Агенты не на связи');
  await expect(page.getByTestId('home-pages')).toContainText('Страницы за этот месяц по сегодня и за те же дни прошлого месяца');
  await page.close();
});
