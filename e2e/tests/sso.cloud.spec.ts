import { expect, test, type Browser, type Page } from '@playwright/test';
import { createServer } from 'node:net';
import { startOidcServer, type OidcServer } from '../../apps/server/src/test/oidc-server.ts';
import { apiToken } from './shell-helpers.ts';

/**
 * Single sign-on in Chromium (issue 55): a customer's OpenID provider (the npm oidc-provider on
 * 127.0.0.1) on the login page as "Sign in with <provider>", its own login and consent pages, and
 * back on home with the role its group maps to; the login page's button and a refusal in Russian.
 * One sign-in for the file.
 */
test.describe.configure({ mode: 'serial' });

const freePort = async () => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
};

const tag = Date.now().toString(36).toUpperCase();
const providerName = `ACME SSO ${tag}`;
const email = `anna.${tag.toLowerCase()}@acme.example.com`;
let op: OidcServer;

test.beforeAll(async ({ playwright }, info) => {
  const baseURL = info.project.use.baseURL!;
  const request = await playwright.request.newContext({ baseURL });
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const rows = async (url: string) => ((await (await request.get(url, { headers })).json()) as { pageRows: { id: number; code: string }[] }).pageRows;
  const defaultId = (await rows('/api/user-locations/')).find((l) => l.code === 'DEFAULT')!.id;
  const admin = (await rows('/api/managed-roles-v/')).find((r) => r.code === 'ADMIN')!.id;
  const loc = await request.post('/api/dictionary-items', { headers, data: { dictionaryId: 1, code: `SSO-${tag}`, name: `SSO ${tag} Ltd`, parentId: defaultId } });
  expect(loc.status(), await loc.text()).toBe(200);
  const locationId = ((await loc.json()) as { id: number }).id;
  const opPort = await freePort();
  const created = await request.post('/api/identity-providers', {
    headers,
    data: {
      kind: 'OIDC', name: providerName, locationId, enabled: true, allowInternal: true, secret: 'e2e-client-Secret-1', mappings: [{ group: 'acme-admins', roleId: admin, locationId }],
      oidc: { issuer: `http://127.0.0.1:${opPort}`, clientId: 'pagewatch-e2e', scopes: 'openid email profile groups' },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { redirectUri } = (await created.json()) as { redirectUri: string };
  await request.dispose();
  op = await startOidcServer(opPort, { id: 'pagewatch-e2e', secret: 'e2e-client-Secret-1', redirectUris: [redirectUri] }, [
    { sub: `anna-${tag}`, email, name: 'Anna Karpova', familyName: 'Karpova', groups: ['acme-admins'] },
  ]);
});
test.afterAll(() => op?.close());

const pageIn = async (browser: Browser, locale: string, baseURL: string | undefined): Promise<Page> =>
  (await browser.newContext({ baseURL, locale, viewport: { width: 1440, height: 900 } })).newPage();

test('signs in with the customer\'s OpenID provider and lands on home with the mapped role', async ({ browser }, info) => {
  const page = await pageIn(browser, 'en-US', info.project.use.baseURL);
  // The bare login page lists no customer's provider: only the customer's own sign-in address does.
  await page.goto('/login-form');
  await expect(page.getByLabel('E-mail')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Sign in with / })).toHaveCount(0);
  await page.goto(`/login-form?at=SSO-${tag}`);
  await page.getByRole('button', { name: `Sign in with ${providerName}` }).click();
  // The provider's own pages: its login form, then its consent.
  await page.locator('input[name="login"]').fill(`anna-${tag}`);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/home$/);
  // ADMIN at the customer's location: users are theirs to manage, the instance's settings are not.
  await expect(page.locator('[data-menu="users"]')).toBeVisible();
  await expect(page.locator('[data-menu="identityProviders"]')).toBeVisible();
  await expect(page.locator('[data-menu="settings"]')).toHaveCount(0);
  const me = await page.evaluate(async () => (await fetch('/api/users/me', { headers: { Authorization: `Bearer ${localStorage.getItem('pagewatch.token')}` } })).json());
  expect(me).toMatchObject({ login: email, grants: [{ code: 'ADMIN' }] });
  await page.goto('/identity-providers');
  await expect(page.getByTestId('idp-table')).toContainText(providerName);
  if (process.env.E2E_KEEP) await page.screenshot({ path: info.outputPath('identity-providers-en.png') });
  // The form: the secret write-only (only said to be stored), the redirect URI to register, the mapping.
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByTestId('idp-dialog');
  await expect(dialog.getByTestId('idp-redirect-uri')).toHaveText(/\/api\/auth\/oidc\/\d+\/callback$/);
  await expect(dialog.getByLabel('Client secret')).toHaveValue('');
  // Test connection: the provider's discovery document and keys, read with the stored secret.
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByTestId('idp-test-result')).toHaveText(/^Connected: the discovery document of http:\/\/127\.0\.0\.1:\d+ and its \d+ signing keys were read$/);
  await expect(dialog.getByTestId('idp-sign-in-address')).toHaveText(new RegExp(`/login-form\\?at=SSO-${tag}$`));
  await expect(dialog.getByTestId('idp-mapping-0').getByRole('textbox', { name: 'Group' })).toHaveValue('acme-admins');
  if (process.env.E2E_KEEP) await page.screenshot({ path: info.outputPath('identity-provider-form-en.png') });
  await page.context().close();
});

test('says it in Russian: the provider\'s button, and why a sign-in came back without access', async ({ browser }, info) => {
  const page = await pageIn(browser, 'ru-RU', info.project.use.baseURL);
  await page.goto(`/login-form?at=sso-${tag}`);
  await expect(page.getByRole('button', { name: `Войти через ${providerName}` })).toBeVisible();
  if (process.env.E2E_KEEP) await page.screenshot({ path: info.outputPath('login-ru.png') });
  await page.goto('/login-form?sso-error=noAccess');
  await expect(page.getByTestId('sso-error')).toHaveText('Ваши группы в каталоге не дают доступа к Pagewatch; обратитесь к администратору');
  await page.context().close();
});
