import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

// A console folder with a secret file beside it (outside the folder) and one two levels up.
const base = mkdtempSync(join(tmpdir(), 'pw-static-'));
const dist = join(base, 'site', 'dist');
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  writeFileSync(join(base, 'site', 'host.conf'), 'secret');
  writeFileSync(join(base, 'host.conf'), 'secret');
  t = await createTestApp({ webDist: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(base, { recursive: true, force: true });
});

describe('static files', () => {
  it('serves the console and its assets', async () => {
    expect((await t.app.inject({ url: '/' })).body).toContain('console');
    const js = await t.app.inject({ url: '/assets/app-1.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/devices/12', headers: { accept: 'text/html' } })).body).toContain('console');
  });

  it('answers a path outside the folder exactly like a missing file', async () => {
    const missing = await t.app.inject({ url: '/assets/nothing.conf' });
    expect(missing.statusCode).toBe(404);
    const paths = [
      '/assets/..%2f..%2fhost.conf',
      '/assets/..%2f..%2f..%2fhost.conf',
      '/assets/%2e%2e/%2e%2e/host.conf',
      '/assets/%2e%2e%2f%2e%2e%2fhost.conf',
      '/assets/..%5c..%5chost.conf',
      '/assets/..\\..\\host.conf',
      '/assets/%252e%252e%252fhost.conf',
      '/assets/..%252f..%252fhost.conf',
      '/assets/app-1.js%00.conf',
      '/assets/%00.conf',
      '/..%2fhost.conf',
      '/%2e%2e/host.conf',
    ];
    for (const url of paths) {
      const res = await t.app.inject({ url });
      expect({ url, status: res.statusCode, body: res.body }).toEqual({ url, status: 404, body: missing.body });
    }
    // A malformed escape is refused by the router before any file is looked at, whatever the path.
    expect((await t.app.inject({ url: '/assets/%E0%A4%A.conf' })).statusCode).toBe(400);
  });
});
