import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { adminHeaders, basic, createOperator, signIn, signInWithForm } from './shell-helpers.ts';

/**
 * Signing in and changing a password (issue 56), on a user of its own: in Russian a wrong
 * password is refused with the message and the right one signs in (shell-auth.spec.ts does it in
 * English); the administrator changes the user's password on the user form, refused while the
 * confirmation differs or the password is short, and then only the new one signs in.
 */

let request: APIRequestContext;
let admin: Page;
let user: { login: string; password: string; id: number };

test.beforeAll(async ({ browser, playwright }, info) => {
  request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const made = await createOperator(request);
  const filter = encodeURIComponent(JSON.stringify([['login', '=', made.login]]));
  const rows = ((await (await request.get(`/api/users?page=10,1&filter-json=${filter}`, { headers: await adminHeaders(request) })).json()) as { pageRows: { id: number }[] }).pageRows;
  expect(rows).toHaveLength(1);
  user = { ...made, id: rows[0]!.id };
  admin = await (browser as Browser).newPage({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  await signIn(admin);
});
test.afterAll(async () => {
  await admin.close();
  await request.dispose();
});

const signsIn = async (password: string) => (await request.post('/api/auth/?remember=false', { headers: { Authorization: basic(user.login, password) } })).status();

test('in Russian a wrong password is refused with the message, the right one signs in', async ({ browser }) => {
  const ru = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });
  const page = await ru.newPage();
  await page.goto('/login-form');
  await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByText('Обязательное поле')).toHaveCount(2);
  await signInWithForm(page, user.login, 'not-the-password');
  await expect(page.getByTestId('login-error')).toHaveText('Неверное имя пользователя или пароль');
  await expect(page).toHaveURL(/\/login-form$/);
  await signInWithForm(page, user.login, user.password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Главная' })).toBeVisible();
  await ru.close();
});

test('the administrator changes a password on the user form; then only the new one signs in', async () => {
  await admin.goto(`/user/${user.id}`);
  const password = admin.getByLabel('Password', { exact: true });
  const again = admin.getByLabel('Password confirmation', { exact: true });
  const save = admin.getByRole('button', { name: 'Save' });
  await expect(password).toHaveValue('');

  await password.fill('New-pass-56a');
  await again.fill('New-pass-56b');
  await save.click();
  await expect(admin.getByText('The passwords do not match')).toBeVisible();
  await password.fill('Short1!');
  await again.fill('Short1!');
  await save.click();
  await expect(admin.getByText('The password must be 8 to 20 characters long')).toBeVisible();
  expect(await signsIn(user.password)).toBe(200);

  await password.fill('New-pass-56a');
  await again.fill('New-pass-56a');
  const changed = admin.waitForResponse((r) => r.url().endsWith(`/api/users/${user.id}`) && r.request().method() === 'PUT');
  await save.click();
  expect((await changed).status()).toBe(200);
  await expect(admin).toHaveURL(new RegExp(`/users\\?highlight=${user.id}$`));
  expect(await signsIn(user.password)).toBe(401);
  expect(await signsIn('New-pass-56a')).toBe(200);
});
