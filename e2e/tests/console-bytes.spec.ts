import { gzipSync } from 'node:zlib';
import { expect, test, type Page, type Response } from '@playwright/test';
import { adminHeaders, defaultLocation, signIn } from './shell-helpers.ts';

/**
 * The console's bytes (issue 53), in the browser on the real build: the login form's scripts
 * come compressed and weigh at most 200 KiB gzip; home loads the chart library only when it has
 * a chart to draw.
 */

const START_BUDGET_KIB = 200;

/** Every script the page receives from the server, as it arrives (the Response, with its headers). */
function scripts(page: Page): Response[] {
  const seen: Response[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.endsWith('.js')) seen.push(res);
  });
  return seen;
}

test('the login form\'s scripts arrive compressed, at most 200 KiB gzip', async ({ browser }) => {
  const page = await browser.newPage({ locale: 'en-US' });
  const got = scripts(page);
  await page.goto('/login-form');
  await expect(page.locator('input[autocomplete="current-password"]')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(got.length).toBeGreaterThan(1);
  let gzip = 0;
  for (const res of got) {
    const body = await res.body();
    gzip += gzipSync(body, { level: 9 }).length;
    // Every script worth it is sent as the build's brotli copy; only a very small one goes as it is.
    const headers = await res.allHeaders();
    expect({ url: res.url(), encoding: body.length > 1024 ? headers['content-encoding'] : 'br', vary: headers.vary }).toEqual({ url: res.url(), encoding: 'br', vary: 'accept-encoding' });
  }
  expect(gzip / 1024).toBeLessThanOrEqual(START_BUDGET_KIB);
  await page.close();
});

test('home without pages to draw loads no chart library', async ({ browser, request }) => {
  // An operator of a location of their own with no device: home shows its first steps, no chart.
  const headers = await adminHeaders(request);
  const code = `BYTES${Date.now().toString(36).toUpperCase()}`;
  const loc = await request.post('/api/dictionary-items', { headers, data: { dictionaryId: 1, code, name: `Empty ${code}`, parentId: (await defaultLocation(request, headers)).id } });
  expect(loc.status(), await loc.text()).toBe(200);
  const roles = (await (await request.get('/api/managed-roles-v/', { headers })).json()) as { pageRows: { id: number; code: string }[] };
  const login = code.toLowerCase();
  const user = await request.post('/api/users', {
    headers,
    data: {
      login, email: `${login}@example.com`, passwordHash: 'Operator-pass1', lastName: 'Bytes', activeFlag: true,
      locations: [{ id: ((await loc.json()) as { id: number }).id }], grants: [{ id: roles.pageRows.find((r) => r.code === 'OPERATOR')!.id }],
    },
  });
  expect(user.status(), await user.text()).toBeLessThan(300);

  const page = await browser.newPage({ locale: 'en-US' });
  const got = scripts(page);
  await signIn(page, login, 'Operator-pass1');
  await expect(page.getByTestId('home-empty')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const withCharts = [];
  for (const res of got) if ((await res.text()).includes('recharts-')) withCharts.push(new URL(res.url()).pathname);
  expect(withCharts).toEqual([]);
  await page.close();
});
