import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { adminHeaders, defaultLocation, sendReadings, signIn } from './shell-helpers.ts';

/**
 * Print queues (issue 20): the queues list and form (host, port and path checked under their
 * fields), the jobs tab with what an agent sent, the reset with its confirmation; in English
 * and in Russian.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1400, height: 900 } });

const s = Date.now().toString(36);
const agentName = `Queues ${s}`;
const serial = `QE2E${s}`.toUpperCase();
let page: Page;
let queueId = 0;
let agentToken = '';

test.beforeAll(async ({ browser, playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const headers = await adminHeaders(request);
  // The printer behind the queue, known by its address.
  await sendReadings(request, headers, `Readings ${s}`, [{
    id: randomUUID(), runId: null, rangeId: null, ip: '10.88.0.5', port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'generic', modelsVersion: 1, sysObjectID: '1.3.6.1.4.1.11.2.3.9.1',
      sysDescr: 'HP LaserJet', vendor: 'HP', model: 'LaserJet M404', serialNumber: serial, macAddress: null, firmware: '1', hostName: 'p', location: 'l',
      isPrinter: true, deviceType: 'PRINTER', colorType: 'MONO', paperFormat: 'A4',
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
      counters: { total: 10, totalUnit: 'impressions', powerOn: null, mono: 10, color: null, a3: null, a4: 10, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
      supplies: [], trays: [], problems: [],
    },
  }]);
  const agent = await request.post('/api/agents', { headers, data: { name: agentName, location: await defaultLocation(request, headers) } });
  expect(agent.status(), await agent.text()).toBe(200);
  agentToken = ((await agent.json()) as { token: string }).token;
  await request.dispose();
  page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 900 } })).newPage();
  await signIn(page);
});
test.afterAll(async () => {
  await page.context().close();
});

test('a queue: bad host, port and path are told under their fields; a good one is saved and listed', async () => {
  await page.goto('/queues');
  await page.getByRole('button', { name: 'Create queue', exact: true }).click();
  await expect(page).toHaveURL(/\/queue\/-1$/);
  const form = page.getByTestId('queue-form');
  await form.getByLabel(/^Host/).fill('http://cups');
  await form.getByLabel(/^Port/).fill('70000');
  await form.getByLabel(/^Printer path/).fill('printers/office');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter a host name or an IPv4 address, without a scheme or a port')).toBeVisible();
  await expect(form.getByText('The port is a number from 1 to 65535')).toBeVisible();
  await expect(form.getByText(/starting with \//)).toBeVisible();
  await expect(page).toHaveURL(/\/queue\/-1$/);

  await form.getByLabel(/^Host/).fill('cups.e2e.local');
  await form.getByLabel(/^Port/).fill('631');
  await form.getByLabel(/^Printer path/).fill('/printers/office');
  await form.getByLabel(/^Password/).fill('queue-secret');
  await form.getByLabel(/^Agent/).click();
  await page.getByRole('option', { name: agentName }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/queues\?highlight=\d+$/);
  queueId = Number(new URL(page.url()).searchParams.get('highlight'));
  const row = page.locator('[data-grid-key="gridQueues"] [role="row"]', { hasText: 'cups.e2e.local' });
  await expect(row).toContainText(agentName);
  await expect(row.locator('[data-status="NEW"]')).toBeVisible();
  await expect(page.getByText('queue-secret')).toHaveCount(0);
});

test('the jobs tab shows what the agent read; the reset asks first', async ({ request }) => {
  const job = { externalJobId: 41, name: 'Quarterly report.pdf', username: 'alice', clientMachine: 'pc-17', createdAt: '2026-03-02T09:00:00Z',
    completedAt: '2026-03-02T09:01:00Z', printedPageCount: 6, colorPageCount: 2, sizeKb: 310, paperSize: 'iso_a4_210x297mm', duplex: true };
  const sent = await request.post('/api/agent/queue-jobs', {
    headers: { Authorization: `Bearer ${agentToken}` },
    data: { batchId: randomUUID(), readAt: new Date().toISOString(), queues: [{ queueId, printerUri: 'socket://10.88.0.5:9100', error: null, jobs: [job] }] },
  });
  expect(sent.status(), await sent.text()).toBe(200);

  await page.goto(`/queue/${queueId}`);
  const state = page.getByTestId('queue-state');
  await expect(state.locator('[data-status="OK"]')).toBeVisible();
  await expect(state.getByRole('link', { name: serial })).toBeVisible();
  await page.getByRole('tab', { name: 'Jobs' }).click();
  const grid = page.locator('[data-grid-key="gridQueueJobs"]');
  for (const header of ['Job number', 'Device', 'Name', 'Created', 'Completed', 'User', 'Client machine', 'Pages', 'Colour pages', 'Size, KB', 'Paper size', 'Duplex']) {
    await expect(grid.getByRole('columnheader', { name: new RegExp(`^${header}`) }).first()).toBeVisible();
  }
  const row = grid.locator('[role="row"]', { hasText: 'Quarterly report.pdf' });
  await expect(row).toContainText('alice');
  await expect(row).toContainText('pc-17');
  await expect(row).toContainText(serial);
  await expect(row).toContainText('iso_a4_210x297mm');

  await page.getByRole('tab', { name: 'Queue' }).click();
  await state.getByRole('button', { name: 'Reset state' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset the queue\'s state' });
  await expect(dialog).toContainText('Jobs already stored are not counted twice');
  await dialog.getByRole('button', { name: 'Proceed' }).click();
  await expect(state.locator('[data-status="NEW"]')).toBeVisible();
  await expect(state).toContainText('1');

  // The device's user activity adds up the job's pages and colour pages.
  await state.getByRole('link', { name: serial }).click();
  await page.getByRole('tab', { name: 'User activity per day' }).click();
  const days = page.locator('[data-grid-key="gridDeviceUserDays"]');
  await expect(days.getByRole('columnheader', { name: /^Colour pages/ }).first()).toBeVisible();
  const day = days.locator('[role="row"]', { hasText: 'alice' });
  await expect(day.getByRole('gridcell')).toContainText(['02.03.2026', 'alice', '6', '2']);
});

test('the queue list has tabs for the queues and for the jobs of them all, the open one kept in the address', async () => {
  await page.goto('/queues');
  await expect(page.getByRole('tab', { name: 'Queues', exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Jobs', exact: true }).click();
  await expect(page).toHaveURL(/\/queues\?tab=jobs$/);
  const job = page.locator('[data-grid-key="gridAllQueueJobs"] [role="row"]', { hasText: 'Quarterly report.pdf' });
  await expect(job).toContainText('alice');
  await expect(job).toContainText(serial);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Jobs', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(job).toBeVisible();
  await page.getByRole('tab', { name: 'Queues', exact: true }).click();
  await expect(page).toHaveURL(/\/queues$/);
  await expect(page.locator('[data-grid-key="gridQueues"] [role="row"]', { hasText: 'cups.e2e.local' })).toBeVisible();
});

test('the queue screens in Russian', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1400, height: 900 } });
  const ru = await context.newPage();
  await signIn(ru);
  await ru.goto('/queues');
  await expect(ru.getByRole('heading', { name: 'Очереди', exact: true })).toBeVisible();
  await expect(ru.locator('[data-grid-key="gridQueues"]').getByRole('columnheader', { name: /^Хост/ })).toBeVisible();
  await ru.getByRole('tab', { name: 'Задания', exact: true }).click();
  await expect(ru.locator('[data-grid-key="gridAllQueueJobs"]').getByRole('columnheader', { name: /^Пользователь/ })).toBeVisible();
  await ru.goto(`/queue/${queueId}`);
  await expect(ru.getByTestId('queue-state').locator('[data-status="NEW"]')).toHaveText('Ещё не прочитана');
  await ru.getByRole('tab', { name: 'Задания' }).click();
  await expect(ru.locator('[data-grid-key="gridQueueJobs"]').getByRole('columnheader', { name: /^Пользователь/ })).toBeVisible();
  await context.close();
});
