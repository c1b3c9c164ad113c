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

test('every list screen of the spec opens with its breadcrumb and title', async ({ page }) => {
  await signIn(page);
  // Lists: their title is the heading and the breadcrumb.
  for (const title of ['Agents', 'Networks', 'Dictionaries', 'Locations', 'Devices', 'Consumables', 'Queues', 'Reports', 'Users', 'Logs', 'Notifications', 'Settings', 'Service', 'Licenses', 'Product']) {
    const path = title === 'Networks' ? '/networks' : `/${title.toLowerCase()}`;
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
    await expect(page.getByLabel('Breadcrumb')).toContainText(title);
  }
});

// Two tests, not one: each loads a dozen screens afresh, within its own time on a busy machine.
test('every item screen of the spec opens with its breadcrumb back to its list', async ({ page }) => {
  await signIn(page);
  // Items: the breadcrumb leads back to their list (new items where a screen can create them).
  const items: [string, string][] = [
    ['/agent/-1', 'Agents'],
    ['/network', 'Networks'],
    ['/dictionary/12', 'Dictionaries'],
    ['/location/-1', 'Locations'],
    ['/device/3', 'Devices'],
    ['/queue/2', 'Queues'],
    ['/report/1', 'Reports'],
    ['/user/-1', 'Users'],
    ['/log/4', 'Logs'],
    ['/notification/9', 'Notifications'],
    ['/license/DEFAULT', 'Licenses'],
  ];
  for (const [path, parent] of items) {
    await page.goto(path);
    await expect(page.getByLabel('Breadcrumb').getByRole('link', { name: parent }), path).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 }).first(), path).toBeVisible();
  }
});

test("a visit's screen is asked for while the session is checked, not after", async ({ page }) => {
  await signIn(page);
  // The session's answer is held back until the devices screen's chunk has been asked for.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/users/me', async (route) => {
    await held;
    await route.continue();
  });
  const chunk = page.waitForRequest(/\/assets\/devices-page-[\w-]+\.js$/);
  await page.goto('/devices');
  await chunk;
  release();
  await expect(page.getByRole('grid')).toBeVisible();
  await page.unroute('**/api/users/me');
});

test('a screen whose code comes late shows a loader at once, not the old screen under the new address', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Home', exact: true })).toBeVisible();
  // Home whole first: its figures arrive after the heading, and its pages chart after them with
  // a loader of its own (waiting only for no loader passed before the card was there).
  await expect(page.getByTestId('home-pages').or(page.getByTestId('home-empty'))).toBeVisible();
  await expect(page.getByTestId('screen-loading')).toHaveCount(0);
  // The product screen's chunk is held back until the loader has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/product-page-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.locator('[data-menu="product"]').click();
  await expect(page).toHaveURL(/\/product$/);
  await expect(page.getByTestId('screen-loading')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home', exact: true })).toHaveCount(0);
  release();
  await expect(page.getByTestId('screen-loading')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Product', exact: true })).toBeVisible();
  await page.unroute(/\/assets\/product-page-[\w-]+\.js$/);
});
