import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

// A console folder with a secret file beside it (outside the folder) and one two levels up.
// Its entry script and index.html have their .br and .gz beside them, as the build writes them
// (apps/web/scripts/precompress.ts); the small app-1.js has none.
const ENTRY = `export const texts = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `text ${i}`))};\n`;
const INDEX = '<!doctype html><title>console</title><script type="module" src="/assets/index-abc123.js"></script>';
const base = mkdtempSync(join(tmpdir(), 'pw-static-'));
const dist = join(base, 'site', 'dist');
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), ENTRY);
  for (const [file, text] of [['index.html', INDEX], [join('assets', 'index-abc123.js'), ENTRY]] as const) {
    writeFileSync(join(dist, `${file}.br`), brotliCompressSync(text));
    writeFileSync(join(dist, `${file}.gz`), gzipSync(text));
  }
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

  it('sends the entry script compressed as the browser accepts it, and plain to a client that accepts nothing', async () => {
    const entry = (headers: Record<string, string>) => t.app.inject({ url: '/assets/index-abc123.js', headers });
    // Chromium's header: brotli is preferred to gzip.
    const br = await entry({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ENTRY);
    const gzip = await entry({ 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(ENTRY);
    const plain = await entry({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ENTRY);
    // brotli refused, gzip taken
    expect((await entry({ 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    for (const res of [br, gzip, plain]) {
      expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      // A cache between keeps one copy per encoding; the hashed name never changes content.
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(Number(br.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']));
    expect(br.headers.etag).not.toBe(plain.headers.etag);
  });

  it('sends index.html compressed for every console route, never cached without asking again', async () => {
    for (const url of ['/', '/home', '/devices/12']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' } });
      expect({ url, encoding: res.headers['content-encoding'], vary: res.headers.vary, cache: res.headers['cache-control'] }).toEqual({ url, encoding: 'br', vary: 'accept-encoding', cache: 'no-cache' });
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    const plain = await t.app.inject({ url: '/home', headers: { accept: 'text/html' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(INDEX);
  });

  it('sends a file without a compressed copy as it is, still varying by Accept-Encoding', async () => {
    const res = await t.app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('console.log(1)');
    expect(res.headers.vary).toBe('accept-encoding');
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
