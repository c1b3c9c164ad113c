import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

// The administrator that playwright.config.ts creates on the fresh server.
export const ADMIN = { login: 'admin', password: process.env.E2E_ADMIN_PASSWORD ?? 'e2e-Admin-pass1' };

export function basic(login: string, password: string) {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/** Fills the login form and submits it with Enter (the form must submit on Enter). */
export async function signInWithForm(page: Page, login: string, password: string) {
  await page.locator('input[autocomplete="username"]').fill(login);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('input[autocomplete="current-password"]').press('Enter');
}

/** Opens the login form and signs in; resolves once the layout is there. */
export async function signIn(page: Page, login = ADMIN.login, password = ADMIN.password) {
  await page.goto('/login-form');
  await signInWithForm(page, login, password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.locator('[data-menu="home"]')).toBeVisible();
}

/** An API token for direct calls. */
export async function apiToken(request: APIRequestContext, login = ADMIN.login, password = ADMIN.password) {
  const res = await request.post('/api/auth/?remember=false', { headers: { Authorization: basic(login, password) } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** A new OPERATOR in the DEFAULT location, created by the admin through the API. */
export async function createOperator(request: APIRequestContext) {
  const auth = { Authorization: `Bearer ${await apiToken(request)}` };
  const roles = (await (await request.get('/api/managed-roles-v/', { headers: auth })).json()) as {
    pageRows: { id: number; code: string }[];
  };
  const locations = (await (await request.get('/api/user-locations/', { headers: auth })).json()) as {
    pageRows: { id: number; code: string }[];
  };
  const role = roles.pageRows.find((r) => r.code === 'OPERATOR');
  const location = locations.pageRows.find((l) => l.code === 'DEFAULT') ?? locations.pageRows[0];
  expect(role, 'OPERATOR role').toBeTruthy();
  expect(location, 'a location').toBeTruthy();
  const login = `operator${Date.now()}`;
  const password = 'Operator-pass1';
  const res = await request.post('/api/users', {
    headers: auth,
    data: {
      login,
      email: `${login}@example.com`,
      passwordHash: password,
      lastName: 'Operator',
      firstName: 'Olga',
      activeFlag: true,
      locations: [{ id: location!.id }],
      grants: [{ id: role!.id }],
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return { login, password };
}

/** The administrator's bearer header for API calls. */
export async function adminHeaders(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request)}` };
}

/** The DEFAULT location as a reference (`{ id }`). */
export async function defaultLocation(request: APIRequestContext, headers: Record<string, string>) {
  const rows = ((await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; code: string }[] }).pageRows;
  return { id: (rows.find((l) => l.code === 'DEFAULT') ?? rows[0]).id };
}

/**
 * An agent's record of one printer as the ingest takes it (pagewatch/reading@1): a generic Acme
 * A4 printer read at `at` with these counters, the fields of `reading` over the defaults.
 */
export function printerRecord(ip: string, at: Date, counters: { total: number; mono: number | null; color: number | null }, reading: Record<string, unknown>) {
  return {
    id: randomUUID(), runId: null, rangeId: null, ip, port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt: at.toISOString(), profileId: 'generic', modelsVersion: 1, sysObjectID: '1.3.6.1.4.1.11.2.3.9.1', vendor: 'Acme',
      macAddress: null, firmware: '1', isPrinter: true, paperFormat: 'A4', status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
      counters: { ...counters, totalUnit: 'impressions', powerOn: null, a3: null, a4: counters.total, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
      supplies: [], trays: [], problems: [],
      ...reading,
    },
  };
}

/** Readings sent as a new agent at the DEFAULT location sends them (one batch, in the order given). */
export async function sendReadings(request: APIRequestContext, headers: Record<string, string>, name: string, readings: unknown[]) {
  const agent = await request.post('/api/agents', { headers, data: { name, location: await defaultLocation(request, headers) } });
  expect(agent.status(), await agent.text()).toBe(200);
  const agentHeaders = { Authorization: `Bearer ${((await agent.json()) as { token: string }).token}` };
  const res = await request.post('/api/agent/readings', { headers: agentHeaders, data: { batchId: randomUUID(), readings } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A new agent at the DEFAULT location with a run started, as a real agent starts one. */
export async function startAgentRun(request: APIRequestContext, headers: Record<string, string>, name: string, startedAt = new Date()) {
  const created = await request.post('/api/agents', { headers, data: { name, location: await defaultLocation(request, headers) } });
  expect(created.status(), await created.text()).toBe(200);
  const { id, token } = (await created.json()) as { id: number; token: string };
  const agent = { Authorization: `Bearer ${token}` };
  const runId = randomUUID();
  const started = await request.post('/api/agent/runs', { headers: agent, data: { runId, startedAt: startedAt.toISOString() } });
  expect(started.status(), await started.text()).toBe(200);
  return { agentId: id, agent, runId, logId: ((await started.json()) as { logId: number }).logId };
}

/** Finishes the run without ranges. */
export async function finishAgentRun(request: APIRequestContext, agent: Record<string, string>, runId: string) {
  const finished = await request.post(`/api/agent/runs/${runId}/finish`, { headers: agent, data: { finishedAt: new Date().toISOString(), rangeResults: [] } });
  expect(finished.status(), await finished.text()).toBe(204);
}
