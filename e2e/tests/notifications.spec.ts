import { expect, test, type Page } from '@playwright/test';
import { ADMIN, adminHeaders, signIn } from './shell-helpers.ts';
import { mailTest } from './mailbox.ts';

// The notifications screens (spec sections 2 to 5) against the real server, with a real SMTP
// server on 127.0.0.1 for the test e-mail.
test.use({ viewport: { width: 1400, height: 1100 } });

const pick = async (page: Page, combobox: RegExp | string, option: string) => {
  await page.getByRole('combobox', { name: combobox }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

mailTest('create a notification through the form, test it by e-mail, find it in the grid and delete it', async ({ page, request, mail }) => {
  // The whole life of a notification, two e-mails included: a long flow, given the time of one.
  test.slow();
  const { received, port: smtpPort } = mail;
  const headers = await adminHeaders(request);
    const saved = await request.put('/api/settings', {
    headers,
    // Moving SMTP needs the administrator's own password again (issue 52).
    data: { currentPassword: ADMIN.password, changes: [
      { code: 'SMTP_HOST', stringValue: '127.0.0.1' }, { code: 'SMTP_PORT', numericValue: smtpPort }, { code: 'SMTP_SSL', flagValue: false },
      { code: 'SMTP_START-TLS', stringValue: 'DISABLED' }, { code: 'SMTP_FROM', stringValue: 'pagewatch@example.com' },
    ] },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await signIn(page);
  await page.goto('/notifications');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/notification\/-1$/);
  const form = page.getByTestId('notification-form');
  await expect(form).toBeVisible();

  // Section 5: an empty form names its broken fields and focuses the first.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel(/^Name/)).toBeFocused();
  await expect(form.getByText('Required field').first()).toBeVisible();

  const name = `Jams ${Date.now().toString(36)}`;
  await page.getByLabel(/^Name/).fill(name);
  await page.getByLabel(/^Subject/).fill('Printer status');
  const body = page.getByTestId('notification-body').locator('[contenteditable="true"]');
  await body.click();
  await body.pressSequentially('Device ');
  await page.getByTestId('body-variables').getByRole('button', { name: 'Serial number' }).click();
  await expect(body).toContainText('{device.serialNumber}');

  // A weekly schedule without a day: the error dialog, and no save.
  await pick(page, 'Frequency', 'Weekly');
  await page.getByTestId('schedule-days').getByRole('button', { name: 'Mon' }).click();
  await page.getByRole('tab', { name: 'Subscribers' }).click();
  await page.getByRole('combobox', { name: 'Subscribers' }).click();
  await page.getByRole('option', { name: /^admin@/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('weekdays-error')).toContainText('Choose at least one day of the week');
  await page.getByTestId('weekdays-error').getByRole('button', { name: 'Close' }).click();

  await page.getByRole('tab', { name: 'Notification' }).click();
  await page.getByTestId('schedule-days').getByRole('button', { name: 'Wed' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('confirm-proceed').click();
  await expect(page.getByText('Created', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/notification\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await page.screenshot({ path: test.info().outputPath('notification-form.png'), fullPage: true });

  // What was saved is what a reload shows, and the type is locked.
  await page.reload();
  await expect(page.getByLabel(/^Name/)).toHaveValue(name);
  await expect(page.getByRole('combobox', { name: 'Notification type' })).toBeDisabled();
  await expect(page.getByTestId('schedule-days').getByRole('button', { name: 'Wed' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('button', { name: 'Test' }).click();
  await page.getByTestId('confirm-proceed').click();
  await expect(page.getByText('Test notification sent')).toBeVisible();
  await expect.poll(() => received.length).toBe(1);
  expect(received[0]).toMatch(/^Subject: \[Test\] Printer status/m);

  // The grid shows the row with its type; `_flash` selects it and leaves the address.
  await page.goto(`/notifications?_flash=${id}`);
  const grid = page.locator('[data-grid-key="gridNotifications"]');
  await expect(grid.locator('[role="row"]', { hasText: name })).toContainText('Status change');
  await expect(page).toHaveURL(/\/notifications$/);
  await page.screenshot({ path: test.info().outputPath('notifications.png') });

  // Test on a new notification saves it first, then sends (spec section 4).
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByLabel(/^Name/).fill(`${name} 2`);
  await page.getByLabel(/^Subject/).fill('Second');
  await page.getByTestId('notification-body').locator('[contenteditable="true"]').fill('Hello');
  await page.getByRole('tab', { name: 'Subscribers' }).click();
  await page.getByRole('combobox', { name: 'Subscribers' }).click();
  await page.getByRole('option', { name: /^admin@/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Test' }).click();
  await page.getByTestId('confirm-proceed').click();
  await expect(page.getByText('Test notification sent')).toBeVisible();
  await expect(page).toHaveURL(/\/notification\/\d+$/);
  await expect.poll(() => received.length).toBe(2);
  expect(received[1]).toMatch(/^Subject: \[Test\] Second/m);

  await page.goto('/notifications');
  await grid.locator('[role="row"]', { hasText: name }).first().click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByTestId('confirm-proceed').click();
  await expect(page.getByText('Deleted', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(grid.locator('[role="row"]', { hasText: `${name} 2` })).toHaveCount(1);
  await expect(grid.locator('[role="row"]', { hasText: name })).toHaveCount(1);
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU' });

  test('each type has its own form and rules', async ({ page }) => {
    await signIn(page);
    await page.goto('/notification/-1?type=COUNTERS');
    // Counters: no IMMEDIATELY, every counter attached by default.
    await expect(page.getByRole('combobox', { name: 'Тип уведомления' })).toHaveValue('Счётчики страниц');
    await expect(page.getByTestId('notification-attachment')).toBeVisible();
    await expect(page.getByTestId('body-variables')).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Периодичность' }).click();
    await expect(page.getByRole('option', { name: 'Сразу' })).toHaveCount(0);
    await page.getByRole('option', { name: 'Ежемесячно' }).click();
    await page.getByRole('checkbox', { name: 'Последний день месяца' }).check();
    await expect(page.getByTestId('schedule-day')).toBeDisabled();

    // Another type swaps the form: the threshold and its rule (0 to 100), the variable buttons.
    await pick(page, 'Тип уведомления', 'Низкий уровень расходного материала');
    await expect(page.getByTestId('notification-attachment')).toHaveCount(0);
    await expect(page.getByTestId('body-variables').getByRole('button', { name: 'Уровень' })).toBeVisible();
    const threshold = page.getByLabel(/^Порог/);
    await threshold.fill('150');
    await threshold.blur();
    await expect(threshold).toHaveValue('100');
    await threshold.fill('');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Порог — целое число от 0 до 100')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('notification-form-ru.png'), fullPage: true });

    // A report: the built reports to choose from, and their columns to attach.
    await pick(page, 'Тип уведомления', 'Отчёт');
    await page.getByRole('combobox', { name: 'Периодичность' }).click();
    await expect(page.getByRole('option', { name: 'Сразу' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await pick(page, /^Отчёт/, 'Установленные расходные материалы');
    await page.getByTestId('notification-attachment').click();
    await expect(page.getByRole('option', { name: 'partModelCode', exact: true })).toBeVisible();
  });
});
