import { expect, test, type Page, type Request } from '@playwright/test';

// The shared DataGrid on its first screen, /users, against the real server.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';
// Unique per run so other specs' users never land in these filters.
const P = `g${Date.now().toString(36)}`;
const COUNT = 25;
const ids: number[] = [];

test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, info) => {
  const api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const auth = await api.post('/api/auth/', {
    headers: { Authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
  });
  expect(auth.ok()).toBe(true);
  const headers = { Authorization: `Bearer ${(await auth.json()).token}` };
  const location = (await (await api.get('/api/user-locations/', { headers })).json()).pageRows[0];
  const role = (await (await api.get('/api/managed-roles-v/', { headers })).json()).pageRows[0];
  for (let i = 1; i <= COUNT; i++) {
    const n = String(i).padStart(2, '0');
    const res = await api.post('/api/users', {
      headers,
      data: {
        login: `${P}u${n}`,
        email: `${P}.${n}@example.com`,
        passwordHash: 'Passw0rd!',
        lastName: `Ln${P}${n}`,
        firstName: `Fn${n}`,
        middleName: `Mn${n}`,
        // Every third user inactive, for the header filter.
        activeFlag: i % 3 !== 0,
        locations: [{ id: location.id }],
        grants: [{ id: role.id }],
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    ids.push((await res.json()).id);
  }
  await api.dispose();
});

async function signIn(page: Page, path = '/users') {
  await page.goto(path);
  await expect(page).toHaveURL(/login-form/);
  await page.getByLabel('User name').fill('admin');
  await page.locator('input[type="password"]').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(path.replace(/[?]/g, '\\?')));
}

/** Every list request the grid makes, with the time it left. */
function recordListRequests(page: Page) {
  const seen: Array<{ url: URL; at: number }> = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/users') seen.push({ url, at: Date.now() });
  });
  return seen;
}

const grid = (page: Page) => page.locator('[data-grid-key="gridUsers"]');
const rows = (page: Page) => grid(page).locator('[role="row"][data-row-id]');
const header = (page: Page, name: string) => grid(page).getByRole('columnheader', { name });
const sortButton = (page: Page, name: string) => header(page, name).getByRole('button').first();
const loginFilter = (page: Page) => grid(page).getByRole('textbox', { name: 'Filter by Login' });
const pageSize = (page: Page) => grid(page).getByRole('combobox', { name: 'Rows per page' });
const pager = (page: Page) => grid(page).getByTestId('grid-total');

async function filterToRun(page: Page) {
  await loginFilter(page).fill(P);
  await loginFilter(page).press('Enter');
  await expect(pager(page)).toHaveText(`1–20 of ${COUNT}`);
}

test('the filter row waits 1700 ms after typing; Enter applies at once', async ({ page }) => {
  await signIn(page);
  await expect(rows(page).first()).toBeVisible();
  const seen = recordListRequests(page);
  const withFilter = () => seen.filter((s) => s.url.searchParams.has('filter-json'));

  await loginFilter(page).pressSequentially(P, { delay: 40 });
  const typedAt = Date.now();
  await page.waitForTimeout(1000);
  expect(withFilter()).toHaveLength(0);
  await expect.poll(() => withFilter().length, { timeout: 4000 }).toBe(1);
  expect(withFilter()[0].at - typedAt).toBeGreaterThanOrEqual(1500);
  expect(JSON.parse(withFilter()[0].url.searchParams.get('filter-json')!)).toEqual(['login', 'contains', P]);
  await expect(pager(page)).toHaveText(`1–20 of ${COUNT}`);

  const email = grid(page).getByRole('textbox', { name: 'Filter by E-mail' });
  await email.fill('.07@');
  const enterAt = Date.now();
  await email.press('Enter');
  // Enter sends the request at once, well before the 1700 ms typing delay would.
  const emailRequest = () => seen.find((s) => s.url.searchParams.get('filter-json')?.includes('.07@'));
  await expect.poll(() => emailRequest() !== undefined).toBe(true);
  expect(emailRequest()!.at - enterAt).toBeLessThan(1200);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${P}u07`);
});

test('sort, filter, hidden column and page size survive a reload', async ({ page }, info) => {
  await signIn(page);
  await filterToRun(page);

  // The list's default sort is last name ascending; a click turns it, shift-click adds e-mail.
  await expect(header(page, 'Last name')).toHaveAttribute('aria-sort', 'ascending');
  await sortButton(page, 'Last name').click();
  await expect(header(page, 'Last name')).toHaveAttribute('aria-sort', 'descending');
  await expect(rows(page).first()).toContainText(`Ln${P}25`);
  await sortButton(page, 'E-mail').click({ modifiers: ['Shift'] });
  await expect(header(page, 'E-mail')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Last name')).toHaveAttribute('aria-sort', 'descending');
  await expect(header(page, 'Last name')).toContainText('1');
  await expect(header(page, 'E-mail')).toContainText('2');

  await grid(page).getByRole('button', { name: 'Choose columns' }).click();
  await page.getByTestId('grid-column-chooser').getByRole('checkbox', { name: 'Middle name' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(header(page, 'Middle name')).toHaveCount(0);

  await pageSize(page).click();
  await page.getByRole('option', { name: '50' }).click();
  await expect(pager(page)).toHaveText(`1–${COUNT} of ${COUNT}`);
  await expect(rows(page)).toHaveCount(COUNT);

  await page.screenshot({ path: info.outputPath('grid-desktop.png') });
  await page.setViewportSize({ width: 420, height: 800 });
  await page.screenshot({ path: info.outputPath('grid-narrow.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  const seen = recordListRequests(page);
  await page.reload();
  await expect(pager(page)).toHaveText(`1–${COUNT} of ${COUNT}`);
  // The first request after the reload already carries the remembered state.
  const first = seen[0].url.searchParams;
  expect(first.get('page')).toBe('50,1');
  expect(first.getAll('sort')).toEqual(['lastName,DESC', 'email,ASC']);
  expect(JSON.parse(first.get('filter-json')!)).toEqual(['login', 'contains', P]);
  await expect(loginFilter(page)).toHaveValue(P);
  await expect(header(page, 'Last name')).toHaveAttribute('aria-sort', 'descending');
  await expect(header(page, 'E-mail')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Middle name')).toHaveCount(0);
  await expect(pageSize(page)).toHaveValue('50');
  await expect(rows(page).first()).toContainText(`Ln${P}25`);
});

test('header filter, reset filter and paging', async ({ page }) => {
  await signIn(page);
  await filterToRun(page);
  await grid(page).getByRole('button', { name: 'Next page' }).click();
  await expect(pager(page)).toHaveText(`21–${COUNT} of ${COUNT}`);

  await grid(page).getByRole('button', { name: 'Filter values: Active' }).click();
  await page.getByRole('checkbox', { name: 'No' }).check();
  await page.keyboard.press('Escape');
  const inactive = Math.floor(COUNT / 3);
  await expect(pager(page)).toHaveText(`1–${inactive} of ${inactive}`);
  await expect(rows(page)).toHaveCount(inactive);

  await grid(page).getByRole('button', { name: 'Reset filter' }).click();
  await expect(loginFilter(page)).toHaveValue('');
  await expect(grid(page).getByRole('button', { name: 'Filter values: Active' })).toHaveAttribute('aria-pressed', 'false');
  await expect(pager(page)).not.toHaveText(`1–${inactive} of ${inactive}`);

  // Fit to height: as many 34 px rows as the body holds.
  await pageSize(page).click();
  await page.getByRole('option', { name: 'Fit to height' }).click();
  const fits = await grid(page).evaluate((el) => {
    const scroll = el.querySelector('[role="grid"]')!;
    const head = scroll.querySelector('[role="rowgroup"]')!;
    return Math.floor((scroll.clientHeight - head.clientHeight) / 34);
  });
  expect(fits).toBeGreaterThan(5);
  await expect(rows(page)).toHaveCount(fits);
  await expect(pager(page)).toHaveText(new RegExp(`^1–${fits} of \\d+$`));
});

test('row click opens the user; ctrl-click opens a new tab; selecting text opens nothing', async ({ page, context }) => {
  await signIn(page);
  await filterToRun(page);
  const row = rows(page).first();
  const id = await row.getAttribute('data-row-id');

  // Selecting text in a cell by dragging across it must not navigate.
  const cell = row.getByRole('gridcell').nth(1);
  const box = (await cell.boundingBox())!;
  await page.mouse.move(box.x + 6, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  expect(await page.evaluate(() => window.getSelection()?.toString())).not.toBe('');
  await expect(page).toHaveURL(/\/users$/);
  await page.evaluate(() => window.getSelection()?.removeAllRanges());

  const [tab] = await Promise.all([context.waitForEvent('page'), row.click({ modifiers: ['ControlOrMeta'] })]);
  await expect(tab).toHaveURL(new RegExp(`/user/${id}$`));
  await expect(page).toHaveURL(/\/users$/);
  await tab.close();

  // Keyboard: arrows move between rows, Enter opens.
  await row.focus();
  await page.keyboard.press('ArrowDown');
  const second = await rows(page).nth(1).getAttribute('data-row-id');
  await expect(rows(page).nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/user/${second}$`));

  await page.goBack();
  await rows(page).first().click();
  await expect(page).toHaveURL(new RegExp(`/user/${id}$`));
});

test('the user in ?highlight= is highlighted; Create goes to /user/-1', async ({ page }) => {
  // Highlighting marks a row of the current page: filter to this run's users first.
  await signIn(page);
  await filterToRun(page);
  const id = ids[4];
  await page.goto(`/users?highlight=${id}`);
  await expect(grid(page).locator(`[data-row-id="${id}"]`)).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/user\/-1$/);
});

test('a grid asks for a page once, and anew when it is opened again: what was saved meanwhile shows', async ({ page }) => {
  const seen = recordListRequests(page);
  await signIn(page);
  await filterToRun(page);
  // The filter's page was asked for as the grid rendered; the grid did not ask again.
  expect(seen.filter((r) => r.url.searchParams.get('filter-json')?.includes(P))).toHaveLength(1);

  const id = ids[1];
  await grid(page).locator(`[data-row-id="${id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/user/${id}$`));
  // A first name: the grid's order (by last name) keeps the user on its page.
  await page.getByRole('textbox', { name: /^First name/ }).fill(`Renamed${P}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/users\\?highlight=${id}$`));
  await expect(grid(page).locator(`[data-row-id="${id}"]`)).toContainText(`Renamed${P}`);
  // The menu opens the list as it was before the save, which showed the old name a moment ago.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(grid(page).locator(`[data-row-id="${id}"]`)).toContainText(`Renamed${P}`);
});
