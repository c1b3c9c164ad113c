import { expect, test } from '@playwright/test';
import { adminHeaders, defaultLocation, finishAgentRun, signIn, startAgentRun } from './shell-helpers.ts';

// The event log in a Russian browser: records written by the server (a user creation, a sign-in,
// an agent run) are rendered in the reader's language, not in the English they are stored in.
test.use({ locale: 'ru-RU', viewport: { width: 1400, height: 900 } });

test('/logs and /log/{id} show server messages in Russian', async ({ page, request }) => {
  const headers = await adminHeaders(request);
  const location = await defaultLocation(request, headers);
  const roles = (await (await request.get('/api/managed-roles-v/', { headers })).json()).pageRows as { id: number; code: string }[];
  const login = `ru${Date.now().toString(36)}`;
  const user = await request.post('/api/users', {
    headers,
    data: { login, email: `${login}@example.com`, passwordHash: 'Passw0rd!', lastName: 'Ru', activeFlag: true, locations: [location], grants: [{ id: roles.find((r) => r.code === 'OPERATOR')!.id }] },
  });
  expect(user.status(), await user.text()).toBe(200);
  const name = `ru-agent-${Date.now().toString(36)}`;
  const { agent, runId, logId } = await startAgentRun(request, headers, name);
  await finishAgentRun(request, agent, runId);

  await signIn(page);
  await page.goto('/logs');
  const grid = page.locator('[data-grid-key="gridLogs"]');
  await expect(grid.locator('[role="row"]', { hasText: `admin создал пользователя ${login}` })).toBeVisible({ timeout: 15_000 });
  await expect(grid.locator('[role="row"]', { hasText: `Агент ${name}: найдено устройств: 0, диапазонов: 0` })).toBeVisible();
  await expect(grid.locator('[role="row"]', { hasText: 'admin вошёл в систему с адреса 127.0.0.1' }).first()).toBeVisible();
  await expect(grid.locator('[role="row"]', { hasText: 'created user' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('logs-ru.png') });

  await page.goto(`/log/${logId}`);
  await expect(page.getByText(`Агент ${name}: найдено устройств: 0, диапазонов: 0`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('log-run-ru.png') });
});
