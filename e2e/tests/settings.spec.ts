import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from './shell-helpers.ts';
import { mailTest } from './mailbox.ts';

// The settings screen (spec sections 2, 4 and 5) against the real server and a real SMTP
// server on 127.0.0.1 for the test e-mail.
test.use({ viewport: { width: 1400, height: 1000 } });

const field = (page: Page, label: RegExp) => page.getByLabel(label).first();

mailTest('SMTP port rules, validation, save and a test e-mail that arrives', async ({ page, mail }) => {
  const { received, port: smtpPort } = mail;
  await signIn(page);
  await page.goto('/settings');
  const form = page.getByTestId('settings-form');
  await expect(form).toBeVisible();
  // The test server has no PAGEWATCH_PUBLIC_URL: mails will carry no links, and the screen says so.
  await expect(page.getByTestId('mail-links-warning')).toContainText('PAGEWATCH_PUBLIC_URL');
  const port = field(page, /^Port/);
  const ssl = page.getByRole('checkbox', { name: 'SSL' });

  // Section 4: SSL takes 465, or 587 with STARTTLS required; off takes 25 and hides trust-all.
  await ssl.check();
  await expect(port).toHaveValue('465');
  await expect(page.getByRole('checkbox', { name: 'Trust any certificate' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Trust any certificate' }).check();
  await page.getByRole('combobox', { name: 'STARTTLS' }).click();
  await page.getByRole('option', { name: 'Required' }).click();
  await expect(port).toHaveValue('587');
  await ssl.uncheck();
  await expect(port).toHaveValue('25');
  await expect(page.getByRole('checkbox', { name: 'Trust any certificate' })).toHaveCount(0);

  // Section 5: bad values are refused on Save, and the first broken field gets the focus.
  const host = field(page, /^SMTP host/);
  await host.fill('not a host!');
  await field(page, /^Sender address/).fill('nope');
  await page.getByTestId('settings-save').click();
  await expect(page.getByText('Enter an IP address or a host name')).toBeVisible();
  await expect(page.getByText('Invalid e-mail address')).toBeVisible();
  await expect(host).toBeFocused();
  await port.fill('70000');
  await port.blur();

  await host.fill('127.0.0.1');
  await port.fill(String(smtpPort));
  await page.getByRole('combobox', { name: 'STARTTLS' }).click();
  await page.getByRole('option', { name: 'Disabled' }).click();
  await field(page, /^Sender address/).fill('pagewatch@example.com');
  await page.getByRole('combobox', { name: /Polling period/ }).click();
  await page.getByRole('option', { name: '30 min' }).click();
  await field(page, /^Keep log records/).fill('45');
  // Moving SMTP asks for the administrator's own password again (issue 52); a wrong one is refused under it.
  const current = field(page, /^Your password/);
  await page.getByTestId('settings-save').click();
  await expect(page.getByText('Enter your own password to change where or how e-mail is sent')).toBeVisible();
  await expect(current).toBeFocused();
  await current.fill('not-my-password');
  await page.getByTestId('settings-save').click();
  await expect(form.getByText('This is not your password')).toBeVisible();
  await current.fill(ADMIN.password);
  await page.getByTestId('settings-save').click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await expect(current).toHaveCount(0);

  // What was saved is what a reload shows.
  await page.reload();
  await expect(field(page, /^SMTP host/)).toHaveValue('127.0.0.1');
  await expect(field(page, /^Port/)).toHaveValue(String(smtpPort));
  await expect(page.getByRole('combobox', { name: /Polling period/ })).toHaveValue('30 min');
  await expect(field(page, /^Keep log records/)).toHaveValue('45');

  await page.getByTestId('settings-test-email').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Send to/).fill('ops@example.com');
  await dialog.getByTestId('test-email-send').click();
  await expect(page.getByText('A test e-mail was sent to ops@example.com')).toBeVisible();
  await expect.poll(() => received.length).toBe(1);
  expect(received[0]).toMatch(/^To: ops@example.com/m);
  await page.screenshot({ path: test.info().outputPath('settings.png'), fullPage: true });
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU' });
  test('labels and errors in Russian; an unreachable SMTP server is a clear message', async ({ page }) => {
    await signIn(page);
    await page.goto('/settings');
    await expect(page.getByText('Почта (SMTP)')).toBeVisible();
    await expect(page.getByTestId('mail-links-warning')).toContainText('В письмах не будет ссылок на консоль');
    await expect(field(page, /^Суточные счётчики и расходники, месяцев/)).toHaveValue('36');
    const port = field(page, /^Порт/);
    await port.fill('1');
    await field(page, /^Сервер SMTP/).fill('127.0.0.1');
    await field(page, /^Адрес отправителя/).fill('pagewatch@example.com');
    await page.getByTestId('settings-save').click();
    await expect(page.getByText('Введите свой пароль, чтобы изменить, куда и как отправляется почта')).toBeVisible();
    await field(page, /^Ваш пароль/).fill(ADMIN.password);
    await page.getByTestId('settings-save').click();
    await expect(page.getByText('Сохранено', { exact: true })).toBeVisible();
    await page.getByTestId('settings-test-email').click();
    await page.getByRole('dialog').getByTestId('test-email-send').click();
    await expect(page.getByTestId('test-email-error')).toContainText('Не удалось отправить письмо');
    await page.screenshot({ path: test.info().outputPath('settings-ru.png'), fullPage: true });
  });
});
