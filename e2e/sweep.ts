// Screenshots of every screen of the console in English and Russian at 1440×900 (issue 56), to
// look at as a user would. Not a test and not in CI: it runs against a console with real data,
// e.g. the demo (`PORT=18090 npm run demo`), and writes PNGs into SWEEP_DIR:
//   SWEEP_URL=http://127.0.0.1:18090 SWEEP_DIR=/tmp/sweep node e2e/sweep.ts
// Item screens are those of the first item each list links to (or the form of a new one).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

const base = process.env.SWEEP_URL ?? 'http://127.0.0.1:18090';
const dir = process.env.SWEEP_DIR ?? '/tmp/sweep';
const login = process.env.SWEEP_LOGIN ?? 'admin';
const password = process.env.SWEEP_PASSWORD ?? 'demo-Admin-pass1';
const only = process.env.SWEEP_ONLY?.split(',');

/** [list screen, its item screen's path prefix]. */
const SCREENS: [string, string?][] = [
  ['/home'], ['/agents', '/agent/'], ['/networks', '/network/'], ['/dictionaries', '/dictionary/'],
  ['/locations', '/location/'], ['/devices', '/device/'], ['/consumables'], ['/supply-orders'], ['/contracts'],
  ['/queues', '/queue/'], ['/reports', '/report/'], ['/users', '/user/'], ['/logs', '/log/'],
  ['/notifications', '/notification/'], ['/settings'], ['/service'], ['/licenses', '/license/'], ['/product'],
  ['/api-tokens'], ['/identity-providers'],
];

/** Waits until the screen has its data: no loader shown and the network quiet. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.locator('.mantine-Loader-root').first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

const name = (path: string) => path.replace(/^\//, '').replace(/[/?=&]+/g, '_') || 'root';

mkdirSync(dir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let shots = 0;
for (const lang of ['en', 'ru'] as const) {
  const context = await browser.newContext({ baseURL: base, locale: lang === 'ru' ? 'ru-RU' : 'en-US', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login-form');
  await settled(page);
  await page.screenshot({ path: join(dir, `${lang}-login-form.png`) });
  await page.locator('input[autocomplete="username"]').fill(login);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('input[autocomplete="current-password"]').press('Enter');
  await page.waitForURL(/\/home$/);
  for (const [list, itemPrefix] of SCREENS) {
    if (only && !only.some((o) => list.includes(o))) continue;
    await page.goto(list);
    await settled(page);
    await page.screenshot({ path: join(dir, `${lang}-${name(list)}.png`) });
    shots++;
    if (!itemPrefix) continue;
    // The first item the list links to, or opens on a click of its first row; else a new item's form.
    let href = await page.locator(`a[href^="${itemPrefix}"]`).first().getAttribute('href', { timeout: 1_000 }).catch(() => null);
    if (!href) {
      await page.locator('[role="row"][data-row-id]').first().click({ timeout: 3_000 }).catch(() => undefined);
      await page.waitForURL((u) => u.pathname.startsWith(itemPrefix), { timeout: 3_000 }).catch(() => undefined);
      if (new URL(page.url()).pathname.startsWith(itemPrefix)) href = new URL(page.url()).pathname;
    }
    await page.goto(href ?? itemPrefix);
    await settled(page);
    await page.screenshot({ path: join(dir, `${lang}-${name(itemPrefix)}${href ? 'item' : 'new'}.png`) });
    shots++;
    // An item's tabs, each a screen of its own.
    const tabs = page.getByRole('tab');
    const count = await tabs.count();
    for (let i = 1; i < Math.min(count, 8); i++) {
      if (await tabs.nth(i).isDisabled()) continue;
      await tabs.nth(i).click();
      await settled(page);
      await page.screenshot({ path: join(dir, `${lang}-${name(itemPrefix)}tab${i}.png`) });
      shots++;
    }
  }
  await context.close();
}
await browser.close();
console.log(`${shots} screenshots in ${dir}`);
