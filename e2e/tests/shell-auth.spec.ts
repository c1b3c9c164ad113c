import { expect, test } from '@playwright/test';
import { ADMIN, signIn, signInWithForm } from './shell-helpers.ts';

test.use({ locale: 'en-US' });

// The server's Content-Security-Policy must not block any part of the console: Chromium reports
// each blocked script, style, image or connection as a console error and as an event.
let cspViolations: string[] = [];
test.beforeEach(async ({ page }) => {
  cspViolations = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
});
test.afterEach(() => {
  expect(cspViolations).toEqual([]);
});

test('runs under its Content-Security-Policy, live events included', async ({ page }) => {
  const socket = page.waitForEvent('websocket');
  await signIn(page);
  const ws = await socket;
  expect(new URL(ws.url()).host).toBe(new URL(page.url()).host);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  for (const name of ['Devices', 'Users']) {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name }).click();
    // The screen's own title: home also has headings that start with "Devices".
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  }
  expect(ws.isClosed()).toBe(false);
});

test('signs in with the form and out with the header button', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login-form$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await signInWithForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText('Administrator');
  await expect(page.getByTestId('app-version')).toContainText('Version');
  expect(await page.evaluate(() => localStorage.getItem('pagewatch.token'))).toBeTruthy();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login-form$/);
  expect(await page.evaluate(() => localStorage.getItem('pagewatch.token'))).toBeNull();
  // The session is gone: a protected screen asks to sign in again.
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/login-form\?redirect=%2Fdevices$/);
});

test('shows why a sign-in failed and what is missing', async ({ page }) => {
  await page.goto('/login-form');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Required field')).toHaveCount(2);

  await signInWithForm(page, ADMIN.login, 'not-the-password');
  await expect(page.getByTestId('login-error')).toHaveText('Invalid user name or password');
  await expect(page).toHaveURL(/\/login-form$/);
});

test('a stored token the server no longer accepts leads to the login form with redirect', async ({ page }) => {
  await page.goto('/login-form');
  await page.evaluate(() => localStorage.setItem('pagewatch.token', 'revoked-or-made-up'));
  await page.goto('/reports?period=LAST_MONTH');
  await expect(page).toHaveURL(/\/login-form\?redirect=%2Freports%3Fperiod%3DLAST_MONTH$/);
  expect(await page.evaluate(() => localStorage.getItem('pagewatch.token'))).toBeNull();
});

test('a session revoked while the console is open re-enters at the login form', async ({ page, request }) => {
  // The REST path alone: the live socket (which also ends with the session) stays quiet here, and
  // the console rests on a screen that asks nothing more once loaded (home asks again while its
  // figures are being computed), so that the first call with the dead token is the users
  // list's, whatever the machine's speed.
  await page.routeWebSocket(/\/ws/, () => {});
  await signIn(page);
  // Its own requests answered: 'networkidle' says nothing here, the page reached it long before
  // this click (a new screen is no new load), and a request sent after the logout below ends
  // the session on this screen instead of the users list's. An ADMIN's product screen asks for
  // the downloads once the product's answer has drawn it, so both are waited for.
  const productLoaded = page.waitForResponse((r) => r.url().includes('/api/options/product'));
  const downloadsLoaded = page.waitForResponse((r) => r.url().includes('/api/options/downloads'));
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Product' }).click();
  await expect(page).toHaveURL(/\/product$/);
  expect((await productLoaded).status()).toBe(200);
  expect((await downloadsLoaded).status()).toBe(200);
  const token = await page.evaluate(() => localStorage.getItem('pagewatch.token'));
  const res = await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(204);
  // No reload: the users list asks the server with the dead token and gets a 401.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/login-form\?redirect=%2Fusers$/);
  expect(await page.evaluate(() => localStorage.getItem('pagewatch.token'))).toBeNull();
  // Re-entering is the whole answer: no "invalid user name or password" toast for a sign-in nobody made.
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
  // Back in after signing in again, on the screen that was asked for.
  await signInWithForm(page, ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL(/\/users$/);
});

test('opens the forgot-password and demo-request forms from the login card', async ({ page }) => {
  await page.goto('/login-form');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await expect(page.getByLabel('User name or e-mail')).toBeVisible();
  await page.getByRole('button', { name: 'Back to sign-in' }).click();

  await page.getByRole('button', { name: 'Request a demo account' }).click();
  await expect(page.getByRole('heading', { name: 'Demo account request' })).toBeVisible();
  await page.getByLabel('E-mail').fill('not-an-email');
  await page.getByLabel('Phone').fill('abc');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Invalid e-mail address')).toBeVisible();
  await expect(page.getByText('Invalid phone number')).toBeVisible();

  await page.getByLabel('E-mail').fill('buyer@example.com');
  await page.getByLabel('Full name').fill('Ivan Petrov');
  await page.getByLabel('Phone').fill('+7 900 123-45-67');
  await page.getByLabel('Company').fill('Acme');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('status')).toBeVisible();
});

test('a restore link that is not valid says so', async ({ page }) => {
  await page.goto('/restore-password/not-a-real-token');
  await expect(page.getByRole('heading', { name: 'New password' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('invalid');
});
