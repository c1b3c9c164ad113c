import { expect, test, type Page } from '@playwright/test';
import { adminHeaders, signIn } from './shell-helpers.ts';

// The grids' search policy (issue 40), on the users grid: one or two characters typed in a
// text column's filter are searched at the start of the value, and the filter row says so;
// three or more anywhere in it. In English and in Russian.
const P = `q${Date.now().toString(36)}`;
// `zq…` starts with the two characters; `x…zq` holds them further in; both hold P.
const STARTS = `zq${P}a`;
const HOLDS = `x${P}zq`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const headers = await adminHeaders(request);
  const location = (await (await request.get('/api/user-locations/', { headers })).json()).pageRows[0];
  const role = (await (await request.get('/api/managed-roles-v/', { headers })).json()).pageRows[0];
  for (const login of [STARTS, HOLDS]) {
    const res = await request.post('/api/users', {
      headers,
      data: { login, email: `${login}@example.com`, passwordHash: 'Passw0rd!', lastName: 'Search', activeFlag: true, locations: [{ id: location.id }], grants: [{ id: role.id }] },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
});

const grid = (page: Page) => page.locator('[data-grid-key="gridUsers"]');
const logins = (page: Page) => grid(page).locator('[role="row"][data-row-id]');

async function searchPolicy(page: Page, filterLabel: string, hint: string) {
  await signIn(page);
  await page.goto('/users');
  const filter = grid(page).getByRole('textbox', { name: filterLabel });
  await expect(logins(page).first()).toBeVisible();
  // Two characters: the hint, and only the login that starts with them.
  await filter.fill('zq');
  await expect(grid(page).getByTestId('filter-hint')).toHaveText(hint);
  await filter.press('Enter');
  await expect(logins(page)).toHaveCount(1);
  await expect(logins(page).first()).toContainText(STARTS);
  // Three characters or more: anywhere in the login, and no hint.
  await filter.fill(`${P}`);
  await expect(grid(page).getByTestId('filter-hint')).toHaveCount(0);
  await filter.press('Enter');
  await expect(logins(page)).toHaveCount(2);
  await expect(grid(page)).toContainText(STARTS);
  await expect(grid(page)).toContainText(HOLDS);
  await filter.fill(`${P}zq`);
  await filter.press('Enter');
  await expect(logins(page)).toHaveCount(1);
  await expect(logins(page).first()).toContainText(HOLDS);
}

test.describe('in English', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  test('1–2 characters start the value, with a hint; 3 or more are found anywhere', async ({ page }) => {
    await searchPolicy(page, 'Filter by Login', '1–2 characters: starts with');
  });
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU', viewport: { width: 1280, height: 800 } });
  test('1–2 символа ищутся в начале значения, с подсказкой; 3 и больше — где угодно', async ({ page }) => {
    await searchPolicy(page, 'Фильтр: Логин', '1–2 символа: начинается с');
  });
});
