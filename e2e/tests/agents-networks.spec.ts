import { expect, test, type Page } from '@playwright/test';
import { apiToken, signIn } from './shell-helpers.ts';

/**
 * Agents and network ranges (issue 5): create an agent and see its token once; a range with a
 * bad mask gets a message under the field; the lists show what was made; secrets are write-only.
 */

const shots = process.env.E2E_SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

/** Signs in, opens the `list` and presses Create: the empty form of a new `item` (`/<item>/-1`). */
async function createFromList(page: Page, list: string, item: string) {
  await signIn(page);
  await page.goto(`/${list}`);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${item}/-1$`));
  return page.getByTestId(`${item}-form`);
}

test('create an agent: its token is shown once, then the agent is listed', async ({ page, request }) => {
  const name = `Office ${Date.now()}`;
  const form = await createFromList(page, 'agents', 'agent');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Required field').first()).toBeVisible();
  await form.getByLabel(/^Name/).fill(name);
  await form.getByRole('button', { name: 'Save' }).click();

  const token = page.getByTestId('agent-token');
  await expect(token).toBeVisible();
  const value = (await token.textContent())!.trim();
  expect(value).toMatch(/^pwa_/);
  await expect(page.getByText('it is shown only once')).toBeVisible();
  await shot(page, 'agent-token');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/agent\/\d+$/);
  await expect(page.getByTestId('agent-token')).toHaveCount(0);
  await expect(page.getByText(value)).toHaveCount(0);
  await expect(page.locator('[data-status="STOPPED"]')).toBeVisible();
  await expect(page.getByText('The agent has not run yet.')).toBeVisible();

  // The token works for the agent's protocol; the page then shows what the agent said.
  const reg = await request.post('/api/agent/register', { headers: { Authorization: `Bearer ${value}` }, data: { version: '9.9.9', hostname: 'e2e-host', platform: 'linux' } });
  expect(reg.status()).toBe(200);
  await request.post('/api/agent/status', { headers: { Authorization: `Bearer ${value}` }, data: { status: 'RUNNING' } });
  await page.reload();
  await expect(page.locator('[data-status="RUNNING"]')).toBeVisible();
  await expect(page.getByText('9.9.9')).toBeVisible();
  await shot(page, 'agent-page');

  await page.goto('/agents');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.locator('[data-status="RUNNING"]')).toBeVisible();
  await shot(page, 'agents-list');
});

test('network range: a bad mask gets a message, a good one is saved and listed, secrets stay write-only', async ({ page, request }) => {
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const locations = (await (await request.get('/api/user-locations/', { headers })).json()) as { pageRows: { id: number; code: string }[] };
  const agentName = `Ranges ${Date.now()}`;
  const agent = await request.post('/api/agents', { headers, data: { name: agentName, location: { id: locations.pageRows.find((l) => l.code === 'DEFAULT')!.id } } });
  expect(agent.status()).toBe(200);
  const rangeName = `Floor ${Date.now()}`;

  const form = await createFromList(page, 'networks', 'network');
  await expect(form.getByText('recommended')).toBeVisible();
  await form.getByLabel(/^Name/).fill(rangeName);
  await form.getByLabel('Netmask').check();
  await form.getByLabel(/^Address/).fill('10.20.0.0');
  await form.getByLabel(/^Mask/).fill('255.0.255.0');
  await form.getByLabel(/^Agent/).click();
  await page.getByRole('option', { name: agentName }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter a network mask such as 255.255.255.0 or /24')).toBeVisible();
  await shot(page, 'network-bad-mask');
  await expect(page).toHaveURL(/\/network\/-1$/);

  await form.getByLabel(/^Mask/).fill('/8');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('A range holds at most 65536 addresses')).toBeVisible();

  await form.getByLabel(/^Mask/).fill('/24');
  await expect(page.getByTestId('range-size')).toHaveText('256 addresses');
  // SNMP v3 with keys.
  await form.getByLabel(/^SNMP version/).click();
  await page.getByRole('option', { name: 'SNMP v3' }).click();
  await form.getByLabel(/^User/).fill('monitor');
  await form.getByLabel(/^Security level/).click();
  await page.getByRole('option', { name: 'authPriv' }).click();
  await form.getByLabel(/^Authentication protocol/).click();
  await page.getByRole('option', { name: 'sha', exact: true }).click();
  await form.getByLabel(/^Authentication key/).fill('auth-e2e-secret');
  await form.getByLabel(/^Privacy protocol/).click();
  await page.getByRole('option', { name: 'aes', exact: true }).click();
  await form.getByLabel(/^Privacy key/).fill('priv-e2e-secret');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/networks$/);

  const row = page.getByRole('row').filter({ hasText: rangeName });
  await expect(row).toBeVisible();
  await expect(row).toContainText('10.20.0.0');
  await expect(row).toContainText(agentName);
  await shot(page, 'networks-list');

  await row.click();
  await expect(page).toHaveURL(/\/network\/\d+$/);
  await expect(page.getByTestId('secret-authKey')).toHaveValue('');
  await expect(page.getByTestId('secret-authKey')).toHaveAttribute('placeholder', 'stored; type to change');
  expect(await page.content()).not.toContain('auth-e2e-secret');
  await shot(page, 'network-page');
});
