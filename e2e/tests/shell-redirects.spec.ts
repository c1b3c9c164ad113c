import { expect, test } from '@playwright/test';
import { ADMIN, signIn, signInWithForm } from './shell-helpers.ts';

test.use({ locale: 'en-US' });

test('a protected route sends to the login form with the full path and back after sign-in', async ({ page }) => {
  await page.goto('/user/-1?tab=roles');
  await expect(page).toHaveURL(/\/login-form\?redirect=%2Fuser%2F-1%3Ftab%3Droles$/);
  await signInWithForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/\/user\/-1\?tab=roles$/);
  await expect(page.getByLabel('Breadcrumb')).toContainText('Users');
});

test('a redirect to another site is ignored', async ({ page }) => {
  await page.goto('/login-form?redirect=//example.com/phish');
  await signInWithForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/home$/);
});

test('root, /recovery and unknown paths go home', async ({ page }) => {
  await signIn(page);
  for (const path of ['/', '/recovery', '/no/such/screen']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/home$/);
  }
});

test('an unknown path without a session ends at the login form', async ({ page }) => {
  await page.goto('/no/such/screen');
  await expect(page).toHaveURL(/\/login-form$/);
});

test('a signed-in user opening the login form goes home', async ({ page }) => {
  await signIn(page);
  await page.goto('/login-form');
  await expect(page).toHaveURL(/\/home$/);
});

test('every screen of the spec opens with its breadcrumb and title', async ({ page }) => {
  await signIn(page);
  const screens: [string, string, string?][] = [
    ['/agents', 'Agents'],
    ['/agent/7', 'Agent 7', 'Agents'],
    ['/network', 'Network: new', 'Networks'],
    ['/dictionary/12', 'Dictionary 12', 'Dictionaries'],
    ['/locations', 'Locations'],
    ['/device/3', 'Device 3', 'Devices'],
    ['/consumables', 'Consumables'],
    ['/queue/2', 'Queue 2', 'Queues'],
    ['/report/1', 'Report 1', 'Reports'],
    ['/user/-1', 'User: new', 'Users'],
    ['/log/4', 'Log entry 4', 'Logs'],
    ['/notification/9', 'Notification 9', 'Notifications'],
    ['/settings', 'Settings'],
    ['/service', 'Service'],
    ['/license/DEFAULT', 'License DEFAULT', 'Licenses'],
    ['/product', 'Product'],
  ];
  for (const [path, title, parent] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    const crumbs = page.getByLabel('Breadcrumb');
    await expect(crumbs).toContainText(title);
    if (parent) await expect(crumbs.getByRole('link', { name: parent })).toBeVisible();
  }
});
