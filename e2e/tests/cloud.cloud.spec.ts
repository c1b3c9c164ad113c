import { expect, test } from '@playwright/test';
import { signedInCustomer } from './cloud-helpers.ts';

/**
 * Cloud mode (issue 19), on the cloud server of playwright.config.ts: a customer's ADMIN signs
 * in with their e-mail and sees only their own fleet; queues and settings are not theirs.
 */
const c = signedInCustomer('en-US', 'E-mail');

test('a customer signs in by e-mail and sees only its own devices', async () => {
  await c.page.goto('/devices');
  await expect(c.page.getByText(c.acme.model).first()).toBeVisible();
  await expect(c.page.getByText(c.globex.model)).toHaveCount(0);
});

test('the menu has no queues and no settings for a customer', async () => {
  await expect(c.page.locator('[data-menu="devices"]')).toBeVisible();
  await expect(c.page.locator('[data-menu="settings"]')).toHaveCount(0);
  await expect(c.page.locator('[data-menu="queues"]')).toHaveCount(0);
});

test('the users grid shows the e-mail, not a login', async () => {
  await c.page.goto('/users');
  await expect(c.page.getByText(c.acme.email).first()).toBeVisible();
  await expect(c.page.getByRole('columnheader', { name: 'Login' })).toHaveCount(0);
  await expect(c.page.getByText(c.globex.email)).toHaveCount(0);
});

test("the footer's models version opens the upload dialog, which shows the server's refusal", async () => {
  await c.page.getByTestId('models-version').click();
  const dialog = c.page.getByRole('dialog', { name: 'Upload a models pack' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Secret key').fill('not-the-key');
  const chooser = c.page.waitForEvent('filechooser');
  await dialog.getByLabel('Models pack file').click();
  await (await chooser).setFiles({ name: 'models.json', mimeType: 'application/json', buffer: Buffer.from('{}') });
  await dialog.getByTestId('models-upload-submit').click();
  // The pack is the default administrator's, not a customer's: refused, and the dialog stays.
  await expect(c.page.getByText('Only an administrator of the DEFAULT location may change instance settings')).toBeVisible();
  await expect(dialog).toBeVisible();
});
