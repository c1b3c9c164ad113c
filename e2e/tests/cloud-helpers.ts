import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, printerRecord, signInWithForm } from './shell-helpers.ts';

/** One printer's reading as an agent sends it: enough for the devices grid. */
function reading(serial: string, model: string, ip: string) {
  return printerRecord(ip, new Date(), { total: 100, mono: 100, color: null }, {
    sysDescr: `Acme ${model}`, model, serialNumber: serial, firmware: '1.0', hostName: null, location: null, deviceType: 'PRINTER', colorType: 'MONO',
  });
}

export type Customer = { code: string; model: string; email: string; password: string };

/**
 * Two customers of a cloud instance (top-level locations under DEFAULT), each with an agent, one
 * printer and (the first) an ADMIN who signs in with an e-mail. Made by the default admin.
 */
export async function twoCustomers(request: APIRequestContext, tag: string): Promise<[Customer, Customer]> {
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const get = async (url: string) => (await request.get(url, { headers })).json();
  const defaultId = ((await get('/api/user-locations/')).pageRows as { id: number; code: string }[]).find((l) => l.code === 'DEFAULT')!.id;
  const admin = ((await get('/api/managed-roles-v/')).pageRows as { id: number; code: string }[]).find((r) => r.code === 'ADMIN')!.id;
  const customers = ['ACME', 'GLOBEX'].map((name, i) => ({ code: `${name}-${tag}`, model: `${name}-MODEL-${tag}`, email: `boss.${name.toLowerCase()}.${tag.toLowerCase()}@example.com`, password: 'Cloud-pass1', ip: `127.0.61.${i + 1}` }));
  for (const c of customers) {
    const loc = await request.post('/api/dictionary-items', { headers, data: { dictionaryId: 1, code: c.code, name: `${c.code} Ltd`, parentId: defaultId } });
    expect(loc.status(), await loc.text()).toBe(200);
    const location = { id: ((await loc.json()) as { id: number }).id };
    const agent = await request.post('/api/agents', { headers, data: { name: `Agent ${c.code}`, location } });
    expect(agent.status(), await agent.text()).toBe(200);
    const agentHeaders = { Authorization: `Bearer ${((await agent.json()) as { token: string }).token}` };
    const sent = await request.post('/api/agent/readings', { headers: agentHeaders, data: { batchId: randomUUID(), readings: [reading(`SN-${c.code}`, c.model, c.ip)] } });
    expect(sent.status(), await sent.text()).toBe(200);
    // The login sent is ignored in cloud mode: the server stores the e-mail as the login.
    const user = await request.post('/api/users', {
      headers,
      data: { login: 'ignored', email: c.email, passwordHash: c.password, lastName: 'Boss', activeFlag: true, locations: [location], grants: [{ id: admin }] },
    });
    expect(user.status(), await user.text()).toBe(200);
    expect(((await user.json()) as { login: string }).login).toBe(c.email);
  }
  return [customers[0], customers[1]];
}

/**
 * The two customers, and a page in `locale` where the first one's ADMIN has signed in with their
 * e-mail through the login form (labelled `emailLabel`): once per file.
 */
async function customerSignedIn(browser: Browser, playwright: { request: { newContext: (o: { baseURL?: string }) => Promise<APIRequestContext> } }, baseURL: string | undefined, locale: string, emailLabel: string) {
  const request = await playwright.request.newContext({ baseURL });
  const [acme, globex] = await twoCustomers(request, `${locale.slice(0, 2).toUpperCase()}${Date.now().toString(36).toUpperCase()}`);
  await request.dispose();
  const page = await (await browser.newContext({ baseURL, locale, viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto('/login-form');
  await expect(page.getByLabel(emailLabel)).toBeVisible();
  await signInWithForm(page, acme.email, acme.password);
  await expect(page).toHaveURL(/\/home$/);
  return { page, acme, globex };
}

/**
 * A cloud spec's fixture: its tests run in order on one page, signed in once (beforeAll) as
 * acme's ADMIN in `locale`; globex is the other customer, whose fleet must not show.
 */
export function signedInCustomer(locale: string, emailLabel: string) {
  test.describe.configure({ mode: 'serial' });
  const c = {} as { page: Page; acme: Customer; globex: Customer };
  test.beforeAll(async ({ browser, playwright }, info) => {
    Object.assign(c, await customerSignedIn(browser, playwright, info.project.use.baseURL, locale, emailLabel));
  });
  test.afterAll(() => c.page.close());
  return c;
}
