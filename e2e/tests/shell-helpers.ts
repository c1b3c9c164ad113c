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
