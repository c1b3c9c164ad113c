import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, signIn } from './shell-helpers.ts';

/**
 * The dictionary screen (issue 56): an item added from the grid, renamed, and refused when its
 * name is empty or its code too long, with the message under the field; in English, then in
 * Russian on the same session (one sign-in).
 */

const S = Date.now().toString(36).slice(-6).toUpperCase();
let request: APIRequestContext;
let headers: Record<string, string>;
let page: Page;
let dictionaryId: number;

test.beforeAll(async ({ browser, playwright }, info) => {
  request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const res = await request.post('/api/dictionaries', { headers, data: { code: `E2E_${S}`, name: `Paper sizes ${S}`, nameRu: `Форматы ${S}`, hierarchical: false } });
  expect(res.status(), await res.text()).toBe(200);
  dictionaryId = ((await res.json()) as { id: number }).id;
  page = await (browser as Browser).newPage({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  await signIn(page);
});
test.afterAll(async () => {
  await page.close();
  await request.dispose();
});

type Words = { items: string; add: string; code: string; name: string; save: string; required: string; tooLong: string; heading: string };

/** Adds an item (refused empty, refused too long), then opens it from the grid and renames it. */
async function addAndRename(p: Page, k: string, w: Words) {
  await p.goto(`/dictionary/${dictionaryId}`);
  await expect(p.getByRole('heading', { name: w.heading })).toBeVisible();
  await p.getByRole('button', { name: w.add }).click();
  const form = p.getByTestId('item-form');
  const code = form.getByRole('textbox', { name: w.code, exact: true });
  const name = form.getByRole('textbox', { name: w.name, exact: true });

  // Empty: nothing is sent, both required fields say so.
  await form.getByRole('button', { name: w.save }).click();
  await expect(form.getByText(w.required)).toHaveCount(2);
  // A code past its 50 characters is refused with the message under it.
  await code.fill('X'.repeat(51));
  await name.fill(`A4 ${k}`);
  await form.getByRole('button', { name: w.save }).click();
  await expect(form.getByText(w.tooLong)).toBeVisible();

  await code.fill(`A4_${k}${S}`);
  const created = p.waitForResponse((r) => r.url().endsWith('/api/dictionary-items') && r.request().method() === 'POST');
  await form.getByRole('button', { name: w.save }).click();
  expect((await created).status()).toBe(200);
  await expect(form.getByText(w.tooLong)).toHaveCount(0);

  // Listed on the items tab; a click on its row opens it, renamed it is listed so.
  await p.getByRole('tab', { name: w.items }).click();
  const row = p.locator('[role="row"][data-row-id]', { hasText: `A4_${k}${S}` });
  await expect(row).toContainText(`A4 ${k}`);
  await row.click();
  await expect(name).toHaveValue(`A4 ${k}`);
  await name.fill(`A4 portrait ${k}`);
  const renamed = p.waitForResponse((r) => /\/api\/dictionary-items\/\d+$/.test(r.url()) && r.request().method() === 'PUT');
  await form.getByRole('button', { name: w.save }).click();
  expect((await renamed).status()).toBe(200);
  await p.reload();
  await expect(p.locator('[role="row"][data-row-id]', { hasText: `A4_${k}${S}` })).toContainText(`A4 portrait ${k}`);
}

test('an item is added, refused when empty or too long with the message, and renamed', async () => {
  await addAndRename(page, 'EN', {
    heading: `Dictionary: Paper sizes ${S}`, items: 'Items', add: 'Add item', code: 'Code', name: 'Name', save: 'Save', required: 'Required field', tooLong: 'The value is too long',
  });
});

test('the same in Russian', async ({ browser }) => {
  const ru = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1440, height: 900 }, storageState: await page.context().storageState() });
  const p = await ru.newPage();
  await addAndRename(p, 'RU', {
    heading: `Справочник: Форматы ${S}`, items: 'Элементы', add: 'Добавить элемент', code: 'Код', name: 'Наименование', save: 'Сохранить', required: 'Обязательное поле', tooLong: 'Слишком длинное значение',
  });
  await ru.close();
});
