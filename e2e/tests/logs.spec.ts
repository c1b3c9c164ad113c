import { expect, test } from '@playwright/test';
import { adminHeaders, defaultLocation, signIn, startAgentRun } from './shell-helpers.ts';

// The event log screens against the real server: a user creation in /logs, and an agent run
// (through the agent protocol, as a real agent sends it) whose children appear live on /log/{id}.
test.use({ locale: 'en-US', viewport: { width: 1400, height: 900 } });
test.describe.configure({ mode: 'serial' });


test('the logs grid shows a user creation with the acting user, and its record links to the user', async ({ page, request }) => {
  const headers = await adminHeaders(request);
  const roles = (await (await request.get('/api/managed-roles-v/', { headers })).json()).pageRows as { id: number; code: string }[];
  const login = `logged${Date.now().toString(36)}`;
  const res = await request.post('/api/users', {
    headers,
    data: {
      login, email: `${login}@example.com`, passwordHash: 'Passw0rd!', lastName: 'Logged', activeFlag: true,
      locations: [await defaultLocation(request, headers)], grants: [{ id: roles.find((r) => r.code === 'OPERATOR')!.id }],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const userId = (await res.json()).id as number;

  await signIn(page);
  await page.goto('/logs');
  const row = page.locator('[data-grid-key="gridLogs"] [role="row"]', { hasText: `admin created user ${login}` });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText('Users');
  await expect(row).toContainText('Information');
  await expect(row).toContainText('admin');
  await expect(row).toContainText(/\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d/);
  await page.screenshot({ path: test.info().outputPath('logs-grid.png') });

  await row.click();
  await expect(page).toHaveURL(/\/log\/\d+$/);
  await expect(page.getByTestId('log-message-code')).toHaveValue('user.created');
  await expect(page.getByTestId('log-user')).toHaveValue(/^admin/);
  const link = page.getByTestId('log-object').getByRole('link');
  await expect(link).toHaveText(`User ${userId}`);
  await expect(link).toHaveAttribute('href', `/user/${userId}`);
  await page.screenshot({ path: test.info().outputPath('log-user-created.png') });
});

test('an agent run: children appear live on /log/{id}, and the page stops listening when it finishes', async ({ page, request }) => {
  const headers = await adminHeaders(request);
  const { agent, runId, logId } = await startAgentRun(request, headers, `e2e-agent-${Date.now().toString(36)}`);

  // What the page sends over the WebSocket.
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));

  await signIn(page);
  await page.goto(`/log/${logId}`);
  await expect(page.getByTestId('log-level')).toContainText('Processing');
  await expect(page.getByTestId('log-live')).toBeVisible();
  await expect.poll(() => sent.some((s) => s.includes('"subscribe-log-events"') && s.includes(`${logId}`))).toBe(true);
  const children = page.locator('[data-grid-key="gridLogChildren"]');
  await expect(children.getByTestId('grid-empty')).toBeVisible();

  for (const [i, level] of (['W', 'E'] as const).entries()) {
    const problem = await request.post(`/api/agent/runs/${runId}/problems`, { headers: agent, data: { level, message: `e2e problem ${i + 1}` } });
    expect(problem.status(), await problem.text()).toBe(204);
    // No reload by hand: the row comes through EVENT_LOG_CHANGED.
    await expect(children.locator('[role="row"]', { hasText: `e2e problem ${i + 1}` })).toBeVisible();
    await expect(page.getByText(`Child records (${i + 1})`)).toBeVisible();
  }
  await page.screenshot({ path: test.info().outputPath('log-run-live.png') });

  const finished = await request.post(`/api/agent/runs/${runId}/finish`, { headers: agent, data: { finishedAt: new Date().toISOString(), rangeResults: [] } });
  expect(finished.status(), await finished.text()).toBe(204);
  await expect(page.getByTestId('log-level')).toContainText('Error');
  await expect(page.getByTestId('log-live')).toBeHidden();
  await expect(page.getByTestId('log-duration')).toHaveValue(/^\d+\.\d{3}$/);
  await expect.poll(() => sent.some((s) => s.includes('"unsubscribe-log-events"') && s.includes(`${logId}`))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('log-run-finished.png') });
});

test('the top-level switch shows the run\'s child records in /logs or hides them', async ({ page }) => {
  await signIn(page);
  await page.goto('/logs');
  const grid = page.locator('[data-grid-key="gridLogs"]');
  const child = grid.locator('[role="row"]', { hasText: 'e2e problem 1' });
  await expect(grid.locator('[role="row"]', { hasText: 'devices found in 0 range(s)' }).first()).toBeVisible({ timeout: 15_000 });
  await expect(child).toHaveCount(0);
  await page.getByTestId('logs-top-level').uncheck({ force: true });
  await expect(child).toBeVisible();
  await page.getByTestId('logs-top-level').check({ force: true });
  await expect(child).toHaveCount(0);
});
