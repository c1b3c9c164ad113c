import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, signIn } from './shell-helpers.ts';

/**
 * Locations and dictionaries (issue 7): the tree with drag and drop, the grant that allows it,
 * the room plan with placed devices, the 10 MB limit, and live dictionary changes across tabs.
 */

const grid = (page: Page) => page.locator('[data-grid-key="gridLocations"]');
const row = (page: Page, id: number) => grid(page).locator(`[role="row"][data-row-id="${id}"]`);

async function auth(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request)}` };
}

async function locationDictionaryId(request: APIRequestContext, headers: Record<string, string>) {
  return ((await (await request.get('/api/dictionaries/by-code/LOCATION', { headers })).json()) as { id: number }).id;
}

async function defaultId(request: APIRequestContext, headers: Record<string, string>) {
  const rows = ((await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; code: string }[] }).pageRows;
  return rows.find((r) => r.code === 'DEFAULT')!.id;
}

async function createLocation(request: APIRequestContext, headers: Record<string, string>, code: string, parentId: number) {
  const res = await request.post('/api/dictionary-items', {
    headers,
    data: { dictionaryId: await locationDictionaryId(request, headers), code, name: `Loc ${code}`, parentId },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

const suffix = () => Date.now().toString(36).slice(-5);

test('a three-level tree, a branch dragged to a new parent, kept after reload', async ({ page, request }) => {
  const headers = await auth(request);
  const root = await defaultId(request, headers);
  const s = suffix();
  await signIn(page);

  // Level 1 through the form, the rest through the API.
  await page.goto('/locations');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/location\/-1$/);
  const form = page.getByTestId('location-form');
  await form.locator('input[data-path="code"]').fill(`T1${s}`);
  await form.locator('input[data-path="name"]').fill(`Tree one ${s}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/location\/\d+$/);
  const t1 = Number(page.url().split('/').pop());
  const t2 = await createLocation(request, headers, `T2${s}`, t1);
  const t3 = await createLocation(request, headers, `T3${s}`, t2);
  const other = await createLocation(request, headers, `T4${s}`, root);

  await page.goto('/locations');
  await expect(row(page, t3)).toHaveAttribute('aria-level', '4');
  await row(page, t2).dragTo(row(page, other));
  await expect(page.getByText('Saved').first()).toBeVisible();
  await expect(row(page, t2)).toHaveAttribute('aria-level', '3');

  await page.reload();
  await expect(row(page, t2)).toHaveAttribute('aria-level', '3');
  await expect(row(page, t3)).toHaveAttribute('aria-level', '4');
  const rows = ((await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; parentId: number }[] }).pageRows;
  expect(rows.find((r) => r.id === t2)!.parentId).toBe(other);

  // A tab that missed the live updates still shows the old tree: there T1 and T3 look unrelated,
  // but on the server T3 now lies under T1, so the move would be a cycle. The server refuses it
  // and the console shows its message.
  await page.routeWebSocket(/\/ws/, () => {});
  await page.reload();
  await expect(row(page, t3)).toHaveAttribute('aria-level', '4');
  for (const [id, parentId] of [[t2, t1], [other, t3]]) {
    const moved = await request.put(`/api/dictionary-items/${id}`, { headers, data: { parentId } });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  await row(page, t1).dragTo(row(page, t3));
  await expect(page.getByText('A location cannot be moved under itself or under one of its own locations')).toBeVisible();
  await page.screenshot({ path: 'test-results/locations-tree.png' });
});

test('without PAGE_LOCATION.EDIT there is no create button and no drag', async ({ page, request }) => {
  const headers = await auth(request);
  const roles = ((await (await request.get('/api/managed-roles-v/', { headers })).json()) as { pageRows: { id: number; code: string }[] }).pageRows;
  const login = `viewer${suffix()}`;
  const res = await request.post('/api/users', {
    headers,
    data: {
      login, email: `${login}@example.com`, passwordHash: 'Viewer-pass1', lastName: 'Viewer', activeFlag: true,
      locations: [{ id: await defaultId(request, headers) }], grants: [{ id: roles.find((r) => r.code === 'OPERATOR')!.id }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await signIn(page, login, 'Viewer-pass1');
  await page.goto('/locations');
  await expect(grid(page).locator('[role="row"][data-row-id]').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0);
  await expect(grid(page).locator('[role="row"][draggable="true"]')).toHaveCount(0);
});

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SVG_PLAN = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400" viewBox="0 0 800 400"><rect width="800" height="400" fill="#f4f4f4" stroke="#333"/><rect x="20" y="20" width="360" height="360" fill="#dde"/><text x="40" y="60">Room 301</text></svg>',
);

async function createDevices(request: APIRequestContext, headers: Record<string, string>, locationId: number) {
  const agent = await request.post('/api/agents', { headers, data: { name: `Plan agent ${suffix()}`, location: { id: locationId } } });
  expect(agent.status(), await agent.text()).toBe(200);
  const token = ((await agent.json()) as { token: string }).token;
  const reading = (serial: string, status = { deviceStatus: 'running', printerStatus: 'idle', errors: [] as string[], errorStateHex: '00' }) => ({
    schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'generic', modelsVersion: 1, sysObjectID: '1.3.6.1.4.1.11.2.3.9.1',
    sysDescr: 'HP LaserJet', vendor: 'HP', model: 'LaserJet M404', serialNumber: serial, macAddress: null, firmware: '1.0',
    hostName: `printer-${serial}`, location: 'Floor 3', isPrinter: true, deviceType: 'PRINTER', colorType: 'MONO', paperFormat: 'A4',
    status,
    counters: { total: 100, totalUnit: 'impressions', powerOn: null, mono: 100, color: null, a3: null, a4: 100, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
    supplies: [], trays: [], problems: [],
  });
  const s = suffix();
  const batch = {
    batchId: randomUUID(),
    readings: [
      { id: randomUUID(), runId: null, rangeId: null, ip: '127.0.0.51', port: 161, reading: reading(`PLANA${s}`) },
      { id: randomUUID(), runId: null, rangeId: null, ip: '127.0.0.52', port: 161, reading: reading(`PLANB${s}`) },
    ],
  };
  const res = await request.post('/api/agent/readings', { headers: { Authorization: `Bearer ${token}` }, data: batch });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const devices = ((await (await request.get(`/api/locations/${locationId}/devices`, { headers })).json()) as { pageRows: { id: number; serialNumber: string }[] }).pageRows;
  expect(devices).toHaveLength(2);
  const ids = [`PLANA${s}`, `PLANB${s}`].map((serial) => devices.find((d) => d.serialNumber === serial)!.id);
  /** The first device reports a paper jam, as its agent would. */
  const jamFirst = async () => {
    const jam = { batchId: randomUUID(), readings: [{ id: randomUUID(), runId: null, rangeId: null, ip: '127.0.0.51', port: 161, reading: reading(`PLANA${s}`, { deviceStatus: 'down', printerStatus: 'other', errors: ['jammed'], errorStateHex: '04' }) }] };
    const r = await request.post('/api/agent/readings', { headers: { Authorization: `Bearer ${token}` }, data: jam });
    expect(r.status(), await r.text()).toBeLessThan(300);
  };
  return { ids, jamFirst };
}

test('a room plan with two devices placed on it, kept after reload; 12 MB refused', async ({ page, request }) => {
  const headers = await auth(request);
  const loc = await createLocation(request, headers, `PLAN${suffix()}`, await defaultId(request, headers));
  const { ids: [a, b], jamFirst } = await createDevices(request, headers, loc);
  await signIn(page);
  await page.goto(`/location/${loc}`);
  await page.getByRole('tab', { name: 'Room plan' }).click();

  // Over the limit: refused with the message, nothing stored.
  await page.getByTestId('plan-upload').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([PNG_1x1, Buffer.alloc(12 * 1024 * 1024)]) });
  await expect(page.getByText('The file is larger than 10 MB')).toBeVisible();
  await expect(page.getByText('No room plan has been uploaded')).toBeVisible();

  await page.getByTestId('plan-upload').setInputFiles({ name: 'plan.svg', mimeType: 'image/svg+xml', buffer: SVG_PLAN });
  await expect(page.getByTestId('plan-image')).toBeVisible();
  await page.getByText('Change', { exact: true }).click();
  const surface = page.getByTestId('plan-surface');
  const box = (await surface.boundingBox())!;
  await page.getByTestId(`plan-device-${a}`).dragTo(surface, { targetPosition: { x: box.width * 0.25, y: box.height * 0.5 } });
  await page.getByTestId(`plan-device-${b}`).dragTo(surface, { targetPosition: { x: box.width * 0.75, y: box.height * 0.25 } });
  await expect(page.getByTestId(`plan-marker-${a}`)).toBeVisible();
  await page.getByRole('button', { name: 'Save placement' }).click();
  await expect(page.getByText('Saved').first()).toBeVisible();

  await page.reload();
  await page.getByRole('tab', { name: 'Room plan' }).click();
  await expect(page.getByTestId('plan-image')).toBeVisible();
  const ma = page.getByTestId(`plan-marker-${a}`);
  const mb = page.getByTestId(`plan-marker-${b}`);
  await expect(ma).toBeVisible();
  await expect(mb).toBeVisible();
  expect(Number(await ma.getAttribute('data-x'))).toBeCloseTo(0.25, 1);
  expect(Number(await ma.getAttribute('data-y'))).toBeCloseTo(0.5, 1);
  expect(Number(await mb.getAttribute('data-x'))).toBeCloseTo(0.75, 1);
  expect(Number(await mb.getAttribute('data-y'))).toBeCloseTo(0.25, 1);

  // View mode is live: a jam reported by the agent recolours the marker without a reload.
  await expect(ma).toHaveAttribute('data-status', 'OK');
  await jamFirst();
  await expect(ma).not.toHaveAttribute('data-status', 'OK');
  await expect(mb).toHaveAttribute('data-status', 'OK');
  await page.screenshot({ path: 'test-results/locations-plan.png' });
});

test('a dictionary change in one tab shows in another tab without a reload', async ({ browser, request }) => {
  const headers = await auth(request);
  const loc = await createLocation(request, headers, `LIVE${suffix()}`, await defaultId(request, headers));
  const context = await browser.newContext();
  const viewer = await context.newPage();
  await signIn(viewer);
  await viewer.goto('/locations');
  await expect(row(viewer, loc)).toContainText(`Loc LIVE`);

  const editor = await context.newPage();
  await editor.goto(`/location/${loc}`);
  const form = editor.getByTestId('location-form');
  await form.locator('input[data-path="name"]').fill('Renamed live');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('Saved').first()).toBeVisible();

  // The first tab never reloads: DICTIONARY_CHANGED clears its lookup cache and the grid refetches.
  await expect(row(viewer, loc)).toContainText('Renamed live', { timeout: 10_000 });
  await context.close();
});

test("a location's agents tab names the agent's status in words and dates it as the spec writes dates", async ({ page, request }) => {
  const headers = await auth(request);
  const root = await defaultId(request, headers);
  const loc = await createLocation(request, headers, `AG${suffix()}`.toUpperCase(), root);
  const name = `Agent tab ${suffix()}`;
  const made = await request.post('/api/agents', { headers, data: { name, location: { id: loc } } });
  expect(made.status(), await made.text()).toBe(200);
  // Its first contact: the agent says it is idle.
  const token = ((await made.json()) as { token: string }).token;
  expect((await request.post('/api/agent/status', { headers: { Authorization: `Bearer ${token}` }, data: { status: 'IDLE' } })).status()).toBeLessThan(300);
  await signIn(page);
  await page.goto(`/location/${loc}`);
  await page.getByRole('tab', { name: 'Agents' }).click();
  const agentRow = page.getByTestId('location-agents').locator('tr', { hasText: name });
  await expect(agentRow.locator('[data-status="IDLE"]')).toHaveText('Idle');
  await expect(agentRow).toContainText(/\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d/);
});
