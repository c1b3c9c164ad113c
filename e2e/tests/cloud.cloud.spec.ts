import { expect, test, type Page } from '@playwright/test';
import { customerSignedIn, type Customer } from './cloud-helpers.ts';

/**
 * Cloud mode (issue 19), on the cloud server of playwright.config.ts: a customer's ADMIN signs
 * in with their e-mail and sees only their own fleet; queues and settings are not theirs.
 */
test.describe.configure({ mode: 'serial' });

let page: Page;
let acme: Customer;
let globex: Customer;
test.beforeAll(async ({ browser, playwright }, info) => {
  ({ page, acme, globex } = await customerSignedIn(browser, playwright, info.project.use.baseURL, 'en-US', 'E-mail'));
});
test.afterAll(() => page.close());

test('a customer signs in by e-mail and sees only its own devices', async () => {
  await page.goto('/devices');
  await expect(page.getByText(acme.model).first()).toBeVisible();
  await expect(page.getByText(globex.model)).toHaveCount(0);
});

test('the menu has no queues and no settings for a customer', async () => {
  await expect(page.locator('[data-menu="devices"]')).toBeVisible();
  await expect(page.locator('[data-menu="settings"]')).toHaveCount(0);
  await expect(page.locator('[data-menu="queues"]')).toHaveCount(0);
});

test('the users grid shows the e-mail, not a login', async () => {
  await page.goto('/users');
  await expect(page.getByText(acme.email).first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Login' })).toHaveCount(0);
  await expect(page.getByText(globex.email)).toHaveCount(0);
});

test("the footer's models version opens the upload dialog, which shows the server's refusal", async () => {
  await page.getByTestId('models-version').click();
  const dialog = page.getByRole('dialog', { name: 'Upload a models pack' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Secret key').fill('not-the-key');
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByLabel('Models pack file').click();
  await (await chooser).setFiles({ name: 'models.json', mimeType: 'application/json', buffer: Buffer.from('{}') });
  await dialog.getByTestId('models-upload-submit').click();
  // The pack is the default administrator's, not a customer's: refused, and the dialog stays.
  await expect(page.getByText('Only an administrator of the DEFAULT location may change instance settings')).toBeVisible();
  await expect(dialog).toBeVisible();
});
