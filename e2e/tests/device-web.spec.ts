import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { adminHeaders, defaultLocation, signIn } from './shell-helpers.ts';

/**
 * The device's own web page through its agent (issue 55): a printer's page on 127.a.b.10:8080, a
 * standalone agent (the CLI, its long poll over its own connection) carrying it; opened from the
 * card in a new tab, shown there, closed from the console, in English and in Russian.
 */
const S = Date.now().toString(36).slice(-6).toUpperCase();
const ip = `127.${30 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}.10`;
let printer: Server;
let agent: ChildProcess;
let deviceId: number;
const spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-e2e-agent-'));

const reading = () => ({
  id: randomUUID(), runId: null, rangeId: null, ip, port: 161,
  reading: {
    schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'generic', modelsVersion: 1, sysObjectID: '1.3.6.1.4.1.11.2.3.9.1',
    sysDescr: 'Acme EWS', vendor: 'Acme', model: `EWS-${S}`, serialNumber: `EWS${S}`, macAddress: null, firmware: '1', hostName: null, location: null,
    isPrinter: true, deviceType: 'PRINTER', colorType: 'MONO', paperFormat: 'A4', status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
    counters: { total: 10, totalUnit: 'impressions', powerOn: null, mono: 10, color: null, a3: null, a4: 10, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
    supplies: [], trays: [], problems: [],
  },
});

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, info) => {
  printer = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>Acme EWS</title></head><body><h1>Acme printer ${S}</h1><p id="path">${req.url}</p><a href="/supplies">Supplies</a></body></html>`);
  });
  await new Promise<void>((resolve, reject) => printer.once('error', reject).listen(8080, ip, resolve));
  const baseURL = info.project.use.baseURL!;
  const request = await playwright.request.newContext({ baseURL });
  const headers = await adminHeaders(request);
  const created = await request.post('/api/agents', { headers, data: { name: `EWS agent ${S}`, location: await defaultLocation(request, headers) } });
  expect(created.status(), await created.text()).toBe(200);
  const { token } = (await created.json()) as { token: string };
  const sent = await request.post('/api/agent/readings', { headers: { Authorization: `Bearer ${token}` }, data: { batchId: randomUUID(), readings: [reading()] } });
  expect(sent.status(), await sent.text()).toBe(200);
  const rows = (await (await request.get(`/api/devices/page?page=5,1&filter-json=${encodeURIComponent(JSON.stringify(['serialNumber', '=', `EWS${S}`]))}`, { headers })).json()).pageRows as { id: number }[];
  deviceId = rows[0]!.id;
  await request.dispose();
  // The standalone agent as installed, with the test-only loopback override (refused in production).
  agent = spawn(process.execPath, [join(import.meta.dirname, '../../apps/agent/src/cli.ts'), 'run', '--server', baseURL, '--token', token, '--spool-dir', spoolDir], {
    env: { ...process.env, PAGEWATCH_AGENT_DEVICE_WEB_LOOPBACK: '1' }, stdio: 'ignore',
  });
});

test.afterAll(async () => {
  if (agent?.pid) process.kill(agent.pid, 'SIGTERM');
  await new Promise((resolve) => (agent?.exitCode !== null ? resolve(null) : agent.once('exit', resolve)));
  printer?.close();
  rmSync(spoolDir, { recursive: true, force: true });
});

async function openAndClose(page: Page, texts: { locale: string; open: string; close: string; ended: RegExp; otherBrowser: RegExp }, shot: string) {
  await signIn(page);
  await page.goto(`/device/${deviceId}`);
  const panel = page.getByTestId('device-web');
  await expect(panel).toBeVisible();
  await panel.getByText('HTTP 8080').click();
  const [tab] = await Promise.all([page.waitForEvent('popup'), panel.getByRole('button', { name: texts.open }).click()]);
  // On a host of its own (the server runs with PAGEWATCH_DEVICE_WEB_ORIGIN=http://*.localhost:<port>), the ticket swapped and gone.
  await tab.waitForURL(/^http:\/\/[0-9a-f]{32}\.localhost:\d+\/device-web\/[A-Za-z0-9_-]{43}\/$/);
  await expect(tab.locator('h1')).toHaveText(`Acme printer ${S}`);
  // The same address in another browser (a context shares no cookies): refused, the printer not asked.
  const stranger = await page.context().browser()!.newContext({ locale: texts.locale });
  const copied = await stranger.newPage();
  const refused = await copied.goto(tab.url());
  expect(refused?.status()).toBe(403);
  await expect(copied.locator('body')).toContainText(texts.otherBrowser);
  await stranger.close();
  // The page's own links stay in its session.
  await tab.getByText('Supplies').click();
  await expect(tab.locator('#path')).toHaveText('/supplies');
  await expect(panel.getByTestId('device-web-session')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath(`${shot}.png`) });
  await panel.getByTestId('device-web-session').getByRole('button', { name: texts.close }).click();
  await expect(panel.getByTestId('device-web-session')).toHaveCount(0);
  await tab.reload();
  await expect(tab.locator('body')).toContainText(texts.ended);
}

test.describe('in English', () => {
  test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  test('opens the printer\'s page from the card in a new tab and closes it from the console', async ({ page }) => {
    await openAndClose(page, { locale: 'en-US', open: 'Open web page', close: 'Close', ended: /session of the device's web page has ended/, otherBrowser: /belongs to the browser that opened it/ }, 'device-web-en');
  });
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });
  test('открывает страницу принтера из карточки и закрывает сеанс из консоли', async ({ page }) => {
    await openAndClose(page, { locale: 'ru-RU', open: 'Открыть веб-страницу', close: 'Закрыть', ended: /Сеанс веб-страницы устройства закончен/, otherBrowser: /принадлежит браузеру, в котором его открыли/ }, 'device-web-ru');
  });
});
