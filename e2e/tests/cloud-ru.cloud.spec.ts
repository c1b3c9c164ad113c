import { expect, test } from '@playwright/test';
import { signedInCustomer } from './cloud-helpers.ts';

/** Cloud mode in Russian: sign-in by e-mail, only the customer's own fleet (issue 19). */
const c = signedInCustomer('ru-RU', 'Электронная почта');

test('клиент входит по e-mail и видит только свои устройства', async () => {
  await c.page.goto('/devices');
  await expect(c.page.getByText(c.acme.model).first()).toBeVisible();
  await expect(c.page.getByText(c.globex.model)).toHaveCount(0);
  await expect(c.page.locator('[data-menu="settings"]')).toHaveCount(0);
});
