import { expect, test, type Page } from '@playwright/test';
import { customerSignedIn, type Customer } from './cloud-helpers.ts';

/** Cloud mode in Russian: sign-in by e-mail, only the customer's own fleet (issue 19). */
test.describe.configure({ mode: 'serial' });

let page: Page;
let acme: Customer;
let globex: Customer;
test.beforeAll(async ({ browser, playwright }, info) => {
  ({ page, acme, globex } = await customerSignedIn(browser, playwright, info.project.use.baseURL, 'ru-RU', 'Электронная почта'));
});
test.afterAll(() => page.close());

test('клиент входит по e-mail и видит только свои устройства', async () => {
  await page.goto('/devices');
  await expect(page.getByText(acme.model).first()).toBeVisible();
  await expect(page.getByText(globex.model)).toHaveCount(0);
  await expect(page.locator('[data-menu="settings"]')).toHaveCount(0);
});
