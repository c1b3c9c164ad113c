import { expect, test } from '@playwright/test';
import { ADMIN, signInWithForm } from './shell-helpers.ts';

test.describe('Russian browser', () => {
  test.use({ locale: 'ru-RU' });

  test('shows the console in Russian', async ({ page }) => {
    await page.goto('/login-form');
    await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
    await expect(page.getByLabel('Имя пользователя')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

    await signInWithForm(page, ADMIN.login, 'not-the-password');
    await expect(page.getByTestId('login-error')).toHaveText('Неверное имя пользователя или пароль');

    await signInWithForm(page, ADMIN.login, ADMIN.password);
    await expect(page.getByRole('heading', { name: 'Главная' })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Главное меню' });
    await expect(menu.getByRole('link', { name: 'Устройства' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible();
    await expect(page.getByTestId('app-version')).toContainText('Версия');
  });
});

test.describe('English browser', () => {
  test.use({ locale: 'en-GB' });

  test('shows the console in English', async ({ page }) => {
    await page.goto('/login-form');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});

test.describe('a language the console does not speak', () => {
  test.use({ locale: 'de-DE' });

  test('falls back to English', async ({ page }) => {
    await page.goto('/login-form');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });
});
