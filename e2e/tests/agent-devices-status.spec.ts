import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminHeaders, defaultLocation, signIn } from './shell-helpers.ts';

/**
 * Issue 44 on the agent's card: "update required" for an agent the server no longer takes, and
 * each device of its ranges with its last read and last failure, filtered by reason; in English
 * and in Russian.
 */
async function agentWithOutcomes(request: APIRequestContext, name: string, octet: number) {
  const headers = await adminHeaders(request);
  const location = await defaultLocation(request, headers);
  const created = await request.post('/api/agents', { headers, data: { name, location } });
  expect(created.status(), await created.text()).toBe(200);
  const { id, token } = (await created.json()) as { id: number; token: string };
  const range = await request.post('/api/network-ranges', { headers, data: { type: 'RANGE', from: `127.0.${octet}.1`, to: `127.0.${octet}.9`, port: 161, snmpVersion: '2c', community: 'public', agent: { id }, location } });
  expect(range.status(), await range.text()).toBe(200);
  const rangeId = ((await range.json()) as { id: number }).id;
  const agent = { Authorization: `Bearer ${token}`, 'X-Pagewatch-Agent-Api': '2' };
  for (let i = 0; i < 3; i++) {
    const runId = randomUUID();
    expect((await request.post('/api/agent/runs', { headers: agent, data: { runId, startedAt: new Date().toISOString() } })).status()).toBe(200);
    const devices = [{ ip: `127.0.${octet}.1`, reason: null, ms: 120 }, { ip: `127.0.${octet}.2`, reason: 'TIMEOUT', ms: 6000 }, { ip: `127.0.${octet}.3`, reason: 'AUTH', ms: 40 }];
    const fin = await request.post(`/api/agent/runs/${runId}/finish`, { headers: agent, data: { finishedAt: new Date().toISOString(), rangeResults: [{ rangeId, scanned: 9, found: 1, durationMs: 900, error: null, devices }] } });
    expect(fin.status(), await fin.text()).toBe(204);
  }
  // The same agent, speaking an API the server no longer takes.
  const old = await request.post('/api/agent/status', { headers: { ...agent, 'X-Pagewatch-Agent-Api': '0' }, data: { status: 'IDLE' } });
  expect(old.status()).toBe(426);
  return id;
}

test.describe('English', () => {
  test('the card says "update required" and lists why each device is not collected, filterable', async ({ page, request }) => {
    const id = await agentWithOutcomes(request, `Outcomes ${Date.now()}`, 93);
    await signIn(page);
    await page.goto(`/agent/${id}`);
    await expect(page.getByTestId('agent-update-required')).toHaveText('Update required');
    const table = page.getByTestId('agent-devices-status');
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(table.getByRole('row').nth(1)).toContainText('127.0.93.2');
    await expect(table.getByRole('row').nth(1)).toContainText('timeout');
    await expect(table.getByRole('row').nth(1)).toContainText('6000 ms');
    await page.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'authentication' }).click();
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table).toContainText('127.0.93.3');
    await page.screenshot({ path: test.info().outputPath('agent-devices-status.png'), fullPage: true });
    await page.goto('/agents');
    await expect(page.getByRole('row').filter({ hasText: 'Outcomes' }).first().getByTestId('agent-update-required')).toBeVisible();
  });
});

test.describe('Russian', () => {
  test.use({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });
  test('the card says so in Russian', async ({ page, request }) => {
    const id = await agentWithOutcomes(request, `Итоги ${Date.now()}`, 94);
    await signIn(page);
    await page.goto(`/agent/${id}`);
    await expect(page.getByTestId('agent-update-required')).toHaveText('Требуется обновление');
    const table = page.getByTestId('agent-devices-status');
    await expect(page.getByText('Устройства его диапазонов')).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText('нет ответа');
    await expect(table.getByRole('row').nth(1)).toContainText('6000 мс');
    // Issue 56: at 1440 px the outcome and reason badges show whole ("НЕ ОПРОШЕНО", not "НЕ ОПРО…").
    await expect(table.locator('[data-outcome="FAILED"]').first()).toHaveText(/^не опрошено$/i);
    const cut = await table.locator('.mantine-Badge-label').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
    expect(cut, 'badges cut').toEqual([]);
    await page.screenshot({ path: test.info().outputPath('agent-devices-status-ru.png'), fullPage: true });
  });
});
