import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminHeaders, createOperator, defaultLocation, finishAgentRun, signIn, startAgentRun } from './shell-helpers.ts';

/**
 * Defects of the acceptance run (issue 13) in a Russian browser: words left in English, a cut
 * log-level badge, two Russian words for "location", and the new messages of the English spec.
 * The admin signs in once for the file.
 */

const RU = { locale: 'ru-RU', viewport: { width: 1400, height: 900 } };
test.use(RU);

let page: Page;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext(RU)).newPage();
  await signIn(page);
});

test.afterAll(async () => {
  await page.context().close();
});


test('an agent page shows its runs in Russian', async ({ request }) => {
  const headers = await adminHeaders(request);
  const name = `ru-run-${Date.now().toString(36)}`;
  const { agentId: id, agent, runId } = await startAgentRun(request, headers, name, new Date(Date.now() - 1500));
  await finishAgentRun(request, agent, runId);

  await page.goto(`/agent/${id}`);
  const runs = page.getByTestId('agent-runs');
  await expect(runs).toContainText(`Агент ${name}: найдено устройств: 0, диапазонов: 0`);
  await expect(runs.getByRole('cell', { name: /^\d+\.\d{3} с$/ })).toHaveCount(1);
  await expect(runs).not.toContainText('devices found');
  await expect(runs.getByRole('cell', { name: / s$/ })).toHaveCount(0);
});

test('the user form names roles in Russian', async () => {
  await page.goto('/user/-1');
  const form = page.getByTestId('user-form');
  await expect(form.getByRole('checkbox', { name: 'Администратор' })).toBeVisible();
  await expect(form.getByRole('checkbox', { name: 'Оператор' })).toBeVisible();
  await expect(form.getByText('Administrator', { exact: true })).toHaveCount(0);
  await expect(form.getByText('Operator', { exact: true })).toHaveCount(0);
});

test('the warning badge on /logs is not cut', async ({ request }) => {
  const headers = await adminHeaders(request);
  const created = await request.post('/api/agents', { headers, data: { name: `ru-warn-${Date.now().toString(36)}`, location: await defaultLocation(request, headers) } });
  const { id } = (await created.json()) as { id: number };
  // A new token is logged as a warning.
  expect((await request.post(`/api/agents/${id}/regenerate-token`, { headers })).status()).toBe(200);

  await page.goto('/logs');
  const badge = page.locator('[data-grid-key="gridLogs"] [data-level="W"]').first();
  await expect(badge).toBeVisible();
  const label = badge.locator('.mantine-Badge-label');
  await expect(label).toHaveText(/^Предупреждение$/i);
  const cut = await label.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(cut, 'the badge label is cut').toBe(false);
});

test('one Russian word for a location: the menu, the list and the form agree', async () => {
  await page.goto('/locations');
  const menu = page.getByRole('navigation', { name: 'Главное меню' });
  await expect(menu.getByRole('link', { name: 'Расположения' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Расположения' })).toBeVisible();
  await page.goto('/location/-1');
  await expect(page.getByRole('heading', { name: /Расположение/ })).toBeVisible();
  await page.goto('/home');
  await expect(page.getByRole('main')).not.toContainText(/[Лл]окаци|[Пп]лощадк/);
  await expect(menu).not.toContainText(/[Лл]окаци/);
});

test('tree totals and colour columns in Russian', async ({ request }) => {
  // The number of locations from the API: counting rows on the page would race the grid's loading.
  const headers = await adminHeaders(request);
  const count = ((await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: unknown[] }).pageRows.length;
  await page.goto('/locations');
  const locations = page.locator('[data-grid-key="gridLocations"]');
  await expect(locations.locator('[role="row"][data-row-id]')).toHaveCount(count);
  await expect(locations.getByTestId('grid-total')).toHaveText(`Всего: ${count}`);

  await page.goto('/consumables');
  const grid = page.locator('[data-grid-key="gridConsumables"]');
  await expect(grid.getByRole('columnheader', { name: /^Цвет / })).toHaveCount(1);
  await expect(grid.getByRole('columnheader', { name: /^Цветность / })).toHaveCount(1);
});

test('focus and no-access messages in Russian', async ({ browser, request }) => {
  await page.goto('/user/-1');
  const form = page.getByTestId('user-form');
  await form.getByRole('button', { name: 'Сохранить' }).click();
  await expect(form.getByLabel(/^Логин/)).toBeFocused();

  const operator = await createOperator(request);
  const context = await browser.newContext(RU);
  const op = await context.newPage();
  await signIn(op, operator.login, operator.password);
  await op.goto('/users');
  await expect(op.getByText('У вас нет доступа к этой странице')).toBeVisible();
  await op.getByRole('link', { name: 'На главную' }).click();
  await expect(op).toHaveURL(/\/home$/);
  await context.close();
});
