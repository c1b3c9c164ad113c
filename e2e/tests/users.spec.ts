import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, createOperator, signIn } from './shell-helpers.ts';

/**
 * The user form (issue 3): create, change and delete through the form; the validation
 * messages; the no-role and changed-locations dialogs; one's own form; the menu by role.
 */

const form = (page: Page) => page.getByTestId('user-form');
const field = (page: Page, label: string | RegExp) => form(page).getByLabel(label, { exact: typeof label === 'string' });

async function auth(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request)}` };
}

/** Picks an option of the locations multi-select by its label. */
async function pickLocation(page: Page, name: string) {
  await field(page, /^Locations/).click();
  await page.getByRole('option', { name, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** A second location under DEFAULT through the locations dictionary, or null while that API is missing. */
async function addLocation(request: APIRequestContext, code: string): Promise<{ id: number; name: string }> {
  const headers = await auth(request);
  const dict = await request.get('/api/dictionaries/by-code/LOCATION', { headers });
  expect(dict.status(), await dict.text()).toBe(200);
  const locations = (await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; code: string }[] };
  const parent = locations.pageRows.find((l) => l.code === 'DEFAULT')!;
  const name = `Branch ${code}`;
  const res = await request.post('/api/dictionary-items', {
    headers,
    data: { dictionaryId: ((await dict.json()) as { id: number }).id, code, name, parentId: parent.id },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return { id: ((await res.json()) as { id: number }).id, name };
}

test('an OPERATOR does not see the Users menu', async ({ page, request }) => {
  const op = await createOperator(request);
  await signIn(page, op.login, op.password);
  await expect(page.locator('[data-menu="home"]')).toBeVisible();
  await expect(page.locator('[data-menu="users"]')).toHaveCount(0);
});

test('create, change and delete a user through the form', async ({ page }) => {
  const login = `form${Date.now()}`;
  await signIn(page);
  await page.locator('[data-menu="users"]').click();
  await expect(page).toHaveURL(/\/users$/);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/user\/-1$/);

  await expect(field(page, 'Active')).toBeChecked();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await field(page, /^Login/).fill(login);
  await field(page, /^E-mail/).fill(`${login}@example.com`);
  await field(page, /^Password(?! confirmation)/).fill('Form-pass1');
  await field(page, /^Password confirmation/).fill('Form-pass1');
  await field(page, /^Last name/).fill('Formova');
  await field(page, 'First name').fill('Vera');
  await field(page, 'Receives system notifications').check();
  await pickLocation(page, 'Default');
  await field(page, 'Operator').check();

  const created = page.waitForResponse((r) => r.url().endsWith('/api/users') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Save' }).click();
  const body = await (await created).json();
  expect(body.passwordHash).toBeUndefined();
  const sent = (await created).request().postDataJSON();
  expect(sent.passwordHash).toBe('Form-pass1');
  expect(sent).not.toHaveProperty('passwordConfirmation');

  await expect(page).toHaveURL(new RegExp(`/users\\?highlight=${body.id}$`));
  const row = page.locator(`[data-row-id="${body.id}"]`);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(row).toContainText(login);
  await page.screenshot({ path: 'test-results/users-highlight.png' });

  // Change: a new first name, the password left empty (kept).
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/user/${body.id}$`));
  await expect(field(page, /^Login/)).toHaveValue(login);
  await expect(field(page, 'Receives system notifications')).toBeChecked();
  await page.screenshot({ path: 'test-results/user-form.png', fullPage: true });
  await field(page, 'First name').fill('Valentina');
  const changed = page.waitForResponse((r) => r.url().endsWith(`/api/users/${body.id}`) && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await changed).request().postDataJSON()).not.toHaveProperty('passwordHash');
  await expect(page).toHaveURL(new RegExp(`/users\\?highlight=${body.id}$`));
  await expect(page.locator(`[data-row-id="${body.id}"]`)).toContainText('Valentina');

  // Delete, after the confirmation.
  await page.locator(`[data-row-id="${body.id}"]`).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete user' });
  await expect(dialog).toContainText(login);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.locator(`[data-row-id="${body.id}"]`)).toHaveCount(0);
});

test('shows the validation messages, and the no-role dialog stops the save', async ({ page }) => {
  await signIn(page);
  await page.goto('/user/-1');
  await field(page, /^Login/).fill('ab');
  await field(page, /^E-mail/).fill('not-an-email');
  await field(page, /^Password(?! confirmation)/).fill('Short1!');
  await field(page, /^Password confirmation/).fill('Short1?x');
  let posted = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/users')) posted = true;
  });
  await page.getByRole('button', { name: 'Save' }).click();
  const f = form(page);
  await expect(f.getByText('3 to 128 characters: letters, digits, @, _ and -')).toBeVisible();
  await expect(f.getByText('Invalid e-mail address')).toBeVisible();
  await expect(f.getByText('The password must be 8 to 20 characters long')).toBeVisible();
  await expect(f.getByText('The passwords do not match')).toBeVisible();
  await expect(f.getByText('Required field')).toBeVisible(); // last name
  await expect(f.getByText('Choose at least one location')).toBeVisible();
  await page.screenshot({ path: 'test-results/user-validation.png', fullPage: true });

  await field(page, /^Login/).fill('bad login!');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(f.getByText('3 to 128 characters: letters, digits, @, _ and -')).toBeVisible();

  // Everything valid but no role: the warning dialog, and nothing is sent.
  await field(page, /^Login/).fill(`norole${Date.now()}`);
  await field(page, /^E-mail/).fill('norole@example.com');
  await field(page, /^Password(?! confirmation)/).fill('Norole-pass1');
  await field(page, /^Password confirmation/).fill('Norole-pass1');
  await field(page, /^Last name/).fill('Norolev');
  await pickLocation(page, 'Default');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'No role chosen' });
  await expect(dialog).toContainText('Choose at least one role');
  await page.screenshot({ path: 'test-results/user-no-role.png' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/user\/-1$/);
  expect(posted).toBe(false);
});

test('after a save that changed the locations, a dialog lists them, then the list', async ({ page, request }) => {
  const branch = await addLocation(request, `BR${Date.now()}`);
  const headers = await auth(request);
  const roles = (await (await request.get('/api/managed-roles-v/', { headers })).json()) as { pageRows: { id: number; code: string }[] };
  const locs = (await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; code: string }[] };
  const login = `moved${Date.now()}`;
  const res = await request.post('/api/users', {
    headers,
    data: {
      login,
      email: `${login}@example.com`,
      passwordHash: 'Moved-pass1',
      lastName: 'Moved',
      activeFlag: true,
      locations: [{ id: locs.pageRows.find((l) => l.code === 'DEFAULT')!.id }],
      grants: [{ id: roles.pageRows.find((r) => r.code === 'OPERATOR')!.id }],
    },
  });
  const id = ((await res.json()) as { id: number }).id;

  await signIn(page);
  await page.goto(`/user/${id}`);
  // Move the user from Default to the branch below it.
  await pickLocation(page, branch.name);
  await field(page, /^Locations/).click();
  await page.getByRole('option', { name: 'Default', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: "The user's locations have changed" });
  await expect(dialog.getByText('Added', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('listitem').filter({ hasText: branch.name })).toBeVisible();
  await expect(dialog.getByText('Removed', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Default' })).toBeVisible();
  await page.screenshot({ path: 'test-results/user-locations-changed.png' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(new RegExp(`/users\\?highlight=${id}$`));
});

test('on one\'s own form the roles and Delete are disabled', async ({ page }) => {
  await signIn(page);
  const me = await page.evaluate(async () => {
    const r = await fetch('/api/users/me', { headers: { Authorization: `Bearer ${localStorage.getItem('pagewatch.token')}` } });
    return (await r.json()) as { id: number };
  });
  await page.goto(`/user/${me.id}`);
  await expect(field(page, 'Administrator')).toBeChecked();
  await expect(field(page, 'Administrator')).toBeDisabled();
  await expect(field(page, 'Operator')).toBeDisabled();
  await expect(form(page).getByText('You cannot change your own roles')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
});
