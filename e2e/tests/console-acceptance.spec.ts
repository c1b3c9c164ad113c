import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, createOperator, signIn } from './shell-helpers.ts';

/**
 * Defects of the acceptance run (issue 13), in an English browser: tree totals, the consumables
 * column titles, screens opened by link without the grant, focus on the first broken field, and
 * screens not built yet. The admin signs in once for the file.
 */

test.use({ locale: 'en-US', viewport: { width: 1400, height: 900 } });

let page: Page;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 900 } })).newPage();
  await signIn(page);
});

test.afterAll(async () => {
  await page.context().close();
});

async function auth(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request)}` };
}

/** Three locations below DEFAULT, two levels deep; returns how many locations the admin sees. */
async function growLocationTree(request: APIRequestContext) {
  const headers = await auth(request);
  const dictionaryId = ((await (await request.get('/api/dictionaries/by-code/LOCATION', { headers })).json()) as { id: number }).id;
  const all = async () => ((await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; code: string }[] }).pageRows;
  let parentId = (await all()).find((l) => l.code === 'DEFAULT')!.id;
  const s = Date.now().toString(36).slice(-5);
  for (const [i, nest] of [[1, true], [2, true], [3, false]] as const) {
    const res = await request.post('/api/dictionary-items', { headers, data: { dictionaryId, code: `TT${i}${s}`, name: `Tree ${i} ${s}`, parentId } });
    expect(res.status(), await res.text()).toBe(200);
    if (nest) parentId = ((await res.json()) as { id: number }).id;
  }
  return { dictionaryId, count: (await all()).length };
}

test('tree grids count every row they list, not only the top level', async ({ request }) => {
  const { dictionaryId, count } = await growLocationTree(request);
  expect(count).toBeGreaterThanOrEqual(4);

  await page.goto('/locations');
  const locations = page.locator('[data-grid-key="gridLocations"]');
  await expect(locations.locator('[role="row"][data-row-id]')).toHaveCount(count);
  await expect(locations.getByTestId('grid-total')).toHaveText(`Total: ${count}`);

  await page.goto(`/dictionary/${dictionaryId}`);
  const items = page.locator('[data-grid-key="gridDictionaryItems"]');
  await expect(items.locator('[role="row"][data-row-id]')).toHaveCount(count);
  await expect(items.getByTestId('grid-total')).toHaveText(`Total: ${count}`);
});

test('the consumables grid names its two colour columns apart, also in the column chooser', async () => {
  await page.goto('/consumables');
  const grid = page.locator('[data-grid-key="gridConsumables"]');
  // A header's accessible name goes on with its buttons ("Colour Resize column").
  await expect(grid.getByRole('columnheader', { name: /^Colour (?!type)/ })).toHaveCount(1);
  await expect(grid.getByRole('columnheader', { name: /^Colour type / })).toHaveCount(1);
  await grid.getByRole('button', { name: 'Choose columns' }).click();
  const chooser = page.getByRole('dialog');
  await expect(chooser.getByRole('checkbox', { name: 'Colour', exact: true })).toHaveCount(1);
  await expect(chooser.getByRole('checkbox', { name: 'Colour type', exact: true })).toHaveCount(1);
  await page.keyboard.press('Escape');
});

test('a failed validation focuses the first broken field', async () => {
  await page.goto('/user/-1');
  const form = page.getByTestId('user-form');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByLabel(/^Login/)).toBeFocused();
  // The first broken one, not the first one: with a login, the e-mail is next.
  await form.getByLabel(/^Login/).fill(`focus${Date.now()}`);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByLabel(/^E-mail/)).toBeFocused();

  // The same habit on another form.
  await page.goto('/agent/-1');
  const agent = page.getByTestId('agent-form');
  await agent.getByRole('button', { name: 'Save' }).click();
  await expect(agent.getByLabel(/^Name/)).toBeFocused();
});

test('a screen opened by link without its grant says so and leads home', async ({ browser, request }) => {
  const operator = await createOperator(request);
  const context = await browser.newContext({ locale: 'en-US' });
  const op = await context.newPage();
  await signIn(op, operator.login, operator.password);
  for (const path of ['/users', '/user/1', '/settings', '/agents', '/service']) {
    await op.goto(path);
    await expect(op.getByText('You have no access to this page')).toBeVisible();
    await expect(op.getByText('Could not load the list')).toHaveCount(0);
  }
  await op.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(op).toHaveURL(/\/home$/);
  // A screen the role may open is unaffected.
  await op.goto('/logs');
  await expect(op.locator('[data-grid-key="gridLogs"]')).toBeVisible();
  await expect(op.getByText('You have no access to this page')).toHaveCount(0);
  await context.close();
});
