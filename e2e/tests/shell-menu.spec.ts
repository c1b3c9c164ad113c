import { expect, test, type Page } from '@playwright/test';
import { createOperator, signIn } from './shell-helpers.ts';

test.use({ locale: 'en-US', viewport: { width: 1280, height: 900 } });

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

async function menuKeys(page: Page) {
  return menu(page).locator('[data-menu]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu')));
}

test('an ADMIN sees every entry', async ({ page }) => {
  await signIn(page);
  expect(await menuKeys(page)).toEqual([
    'home', 'devices', 'consumables', 'supplyOrders', 'contracts', 'reports', 'logs', 'notifications', 'locations', 'agents',
    'networks', 'queues', 'dictionaries', 'users', 'licenses', 'settings', 'identityProviders', 'service', 'product',
  ]);
});

test('an OPERATOR sees only what the role reads', async ({ page, request }) => {
  const operator = await createOperator(request);
  await signIn(page, operator.login, operator.password);
  expect(await menuKeys(page)).toEqual([
    'home', 'devices', 'consumables', 'supplyOrders', 'contracts', 'reports', 'logs', 'notifications', 'locations', 'product',
  ]);
  await expect(menu(page).getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(menu(page).getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await expect(page.getByTestId('user-name')).toHaveText('Operator Olga');
});

test('the menu highlights the current entry, collapses to icons and remembers it', async ({ page }) => {
  await signIn(page);
  await menu(page).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await page.goto('/user/1');
  await expect(menu(page).getByRole('link', { name: 'Users' })).toHaveAttribute('data-active', 'true');
  await expect(menu(page).getByRole('link', { name: 'Devices' })).not.toHaveAttribute('data-active', 'true');

  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await expect.poll(async () => (await menu(page).boundingBox())?.width).toBe(60);
  // Icons keep their names, so the entries stay usable and testable when collapsed.
  await expect(menu(page).getByRole('link', { name: 'Devices' })).toBeVisible();
  // Each names itself beside it on hover, and the name goes when the pointer leaves.
  const devices = menu(page).getByRole('link', { name: 'Devices' });
  await devices.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Devices');
  const [tip, link] = [await page.getByRole('tooltip').boundingBox(), await devices.boundingBox()];
  expect(tip!.x).toBeGreaterThanOrEqual(link!.x + link!.width);
  await page.mouse.move(700, 500);
  await expect(page.getByRole('tooltip')).toBeHidden();
  await page.reload();
  await expect.poll(async () => (await menu(page).boundingBox())?.width).toBe(60);
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect.poll(async () => (await menu(page).boundingBox())?.width).toBeGreaterThan(60);
});

test('on a phone the menu is a drawer behind the burger', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page);
  await expect(menu(page).getByRole('link', { name: 'Devices' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await menu(page).getByRole('link', { name: 'Devices' }).click();
  await expect(page).toHaveURL(/\/devices$/);
  await expect(menu(page).getByRole('link', { name: 'Devices' })).not.toBeInViewport();
});
