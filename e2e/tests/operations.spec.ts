import { expect, test } from '@playwright/test';
import { metricsPort } from '../playwright.config.ts';
import { signIn } from './shell-helpers.ts';

// Operations (issue 43), on the running server of this suite: its Prometheus listener counts what
// the console just did, names its series as Prometheus expects, and is not on the public port.
const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
/** The sum of a counter's series whose labels hold every one of `labels`. */
const sum = (text: string, name: string, labels: string[]) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

test('the metrics count what the console does, under Prometheus names, on their own port only', async ({ page, request }) => {
  const before = await scrape();
  const counted = (text: string) => sum(text, 'pagewatch_http_requests_total', ['route="/api/users/me"', 'status="200"']);
  await signIn(page);
  await page.goto('/devices');
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  const after = await scrape();
  expect(counted(after)).toBeGreaterThan(counted(before));
  for (const name of ['pagewatch_ingest_readings_total', 'pagewatch_job_runs_total', 'pagewatch_notification_outbox_queued', 'pagewatch_print_queues', 'pagewatch_process_resident_memory_bytes']) {
    expect(after, name).toContain(`# TYPE ${name} `);
  }
  for (const line of after.split('\n').filter((l) => l.startsWith('# TYPE '))) {
    const [, , name, type] = line.split(' ');
    if (type === 'counter') expect(name).toMatch(/_total$/);
    else expect(name, line).not.toMatch(/_total$/);
  }
  // Not on the public port: there /metrics is only the console's page.
  for (const path of ['/metrics', '/api/metrics']) expect(await (await request.get(path)).text(), path).not.toContain('pagewatch_');
});
