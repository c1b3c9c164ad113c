import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiToken, signIn } from './shell-helpers.ts';

/**
 * Licenses (issue 19): the footer link while the instance license is missing, DEFAULT's
 * activation with a .lic signed by `npm run license` (and a tampered one refused), the licenses
 * tree and a location's license form, the product page, and the same screens in Russian.
 * The admin signs in once for the file.
 */

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', viewport: { width: 1400, height: 900 } });

const repo = join(import.meta.dirname, '..', '..');
// The server reads its issuer key from license-issuer.pem in its data folder by default.
const dataDir = process.env.E2E_DATA_DIR!;
const s = Date.now().toString(36).slice(-5);
const code = `LIC${s}`.toUpperCase();
let page: Page;

function licenseTool(...args: string[]) {
  const run = spawnSync(process.execPath, ['apps/server/src/license-tool.ts', ...args], { cwd: repo, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}
const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return { iso: d.toISOString().slice(0, 10), shown: `${String(d.getDate()).padStart(2, '0')}.${String(d.getMonth() + 1).padStart(2, '0')}.${d.getFullYear()}` };
};

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 900 }, acceptDownloads: true })).newPage();
  await signIn(page);
});

test.afterAll(async () => {
  await page.context().close();
});

test('the footer links to DEFAULT, which activates with a signed .lic and refuses a changed one', async () => {
  licenseTool('keys', '--out', dataDir);
  await page.goto('/home');
  const link = page.getByTestId('license-status-link');
  await expect(link).toHaveText('License: Warning');
  await link.click();
  await expect(page).toHaveURL(/\/license\/DEFAULT$/);
  await expect(page.getByTestId('license-description')).toHaveText('No license is installed');

  // No license yet: its fields say so with a dash, not an empty box.
  await expect(page.getByTestId('instance-to')).toHaveValue('—');
  await expect(page.getByTestId('instance-count')).toHaveValue('—');
  await page.getByTestId('license-request').click();
  await expect(page.getByText('Required field')).toBeVisible();
  await page.getByTestId('license-company').fill('Acme Ltd');
  const download = page.waitForEvent('download');
  await page.getByTestId('license-request').click();
  const request = await download;
  expect(request.suggestedFilename()).toBe('lic-request.json');
  const requestPath = join(dataDir, 'lic-request.json');
  await request.saveAs(requestPath);
  const to = day(200);
  const licPath = join(dataDir, 'acme.lic');
  licenseTool('sign', '--key', join(dataDir, 'issuer-private.pem'), '--request', requestPath, '--to', to.iso, '--devices', '50', '--out', licPath);

  const file = page.locator('input[type="file"]');
  const tampered = join(dataDir, 'tampered.lic');
  writeFileSync(tampered, readFileSync(licPath, 'utf8').replace('\\"deviceCount\\":50', '\\"deviceCount\\":5000'));
  await file.setInputFiles(tampered);
  await expect(page.getByTestId('license-upload-error')).toHaveText('The license is not signed by the issuer, or it was changed after signing');
  await expect(page.getByTestId('license-status')).toHaveText('Warning');

  await file.setInputFiles(licPath);
  await expect(page.getByTestId('license-status')).toHaveText('Valid');
  await expect(page.getByTestId('instance-count')).toHaveValue('50');
  await expect(page.getByTestId('instance-to')).toHaveValue(to.shown);
  await expect(page.getByTestId('license-status-link')).toHaveCount(0);
});

test('the licenses tree, and a location licensed, checked, changed and deleted', async ({ request }) => {
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const dictionaryId = ((await (await request.get('/api/dictionaries/by-code/LOCATION', { headers })).json()) as { id: number }).id;
  const created = await request.post('/api/dictionary-items', { headers, data: { dictionaryId, code, name: `Customer ${s}`, parentId: 1 } });
  expect(created.status(), await created.text()).toBe(200);
  const locationId = ((await created.json()) as { id: number }).id;

  await page.goto('/licenses');
  const grid = page.locator('[data-grid-key="gridLicenses"]');
  await expect(grid.locator('[role="row"][data-row-id="1"]')).toContainText('50');
  await page.getByTestId('license-create').click();
  await expect(page).toHaveURL(/\/license\/-1$/);
  const form = page.getByTestId('license-form');
  await form.getByRole('combobox', { name: 'Location' }).click();
  await page.getByRole('option', { name: `Customer ${s} (${code})` }).click();
  await expect(page.getByTestId('license-detected')).toHaveValue('0');
  await expect(form.getByLabel(/^To/)).toHaveValue(day(14).shown);

  // Section 5: count at least 1, dates in order; the first broken field gets the focus.
  await page.getByTestId('license-count').fill('0');
  await form.getByLabel(/^From/).fill(day(20).shown);
  await form.getByLabel(/^From/).blur();
  await page.getByTestId('license-save').click();
  await expect(form.getByText('A whole number from 1 to 1,000,000')).toBeVisible();
  await expect(form.getByText('The end date is before the start date')).toBeVisible();
  await form.getByLabel(/^From/).fill(day(0).shown);
  await form.getByLabel(/^From/).blur();
  await page.getByTestId('license-count').fill('12');
  await page.getByTestId('license-save').click();
  await expect(page.getByText('Created', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/licenses$/);

  const row = grid.locator(`[role="row"][data-row-id="${locationId}"]`);
  await expect(row).toContainText('12');
  await row.getByText(code, { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/license/${code}$`));
  await expect(page.getByTestId('license-count')).toHaveValue('12');
  await page.getByTestId('license-count').fill('15');
  await page.getByTestId('license-save').click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await expect(row).toContainText('15');
  await row.getByText(code, { exact: true }).click();
  await page.getByTestId('license-delete').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('License deleted', { exact: true })).toBeVisible();
  await expect(row).not.toContainText('15');
});

test('the product page, and the license screens in Russian', async ({ browser }) => {
  await page.goto('/product');
  await expect(page.getByTestId('product-version')).toHaveText(/^\d+\.\d+\.\d+/);
  await expect(page.getByTestId('product-copyright')).toContainText('Pagewatch');

  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1400, height: 900 } });
  const ru = await context.newPage();
  await signIn(ru);
  await ru.goto('/licenses');
  await expect(ru.getByRole('heading', { name: 'Лицензии', exact: true })).toBeVisible();
  await expect(ru.locator('[data-grid-key="gridLicenses"]').getByRole('columnheader', { name: /^Доступно устройств/ })).toBeVisible();
  await ru.goto('/license/DEFAULT');
  await expect(ru.getByTestId('license-status')).toHaveText('Действует');
  await expect(ru.getByText('Активация')).toBeVisible();
  await ru.goto('/product');
  await expect(ru.getByText('Поддержка', { exact: true })).toBeVisible();
  await context.close();
});
