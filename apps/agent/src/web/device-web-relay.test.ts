import { describe, expect, it } from 'vitest';
import type { WebProxyRequest } from '@pagewatch/contracts/device-web';
import { deviceWebLoopbackAllowed, refusal } from './device-web-relay.ts';

/** The agent's own check (issue 55): only HTTP(S) to a device's address on 80, 443 or 8080, never its own host. */
const request = (over: Partial<WebProxyRequest>): WebProxyRequest => ({ id: '00000000-0000-4000-8000-000000000000', scheme: 'http', host: '10.1.2.3', port: 80, method: 'GET', path: '/', headers: [], body: '', ...over });

describe('device web relay refusals', () => {
  it('takes a device address on its web ports', () => {
    expect(refusal(request({}), false)).toBeNull();
    expect(refusal(request({ scheme: 'https', port: 443 }), false)).toBeNull();
    expect(refusal(request({ port: 8080, method: 'POST', path: '/set?a=1' }), false)).toBeNull();
  });

  it('refuses other ports, schemes mixed with ports, names, special and own addresses, odd methods and paths', () => {
    for (const [over, why] of [
      [{ port: 22 }, /port 22/],
      [{ port: 9100 }, /port 9100/],
      [{ scheme: 'https', port: 80 }, /https on port 80/],
      [{ scheme: 'http', port: 443 }, /http on port 443/],
      [{ host: 'printer.local' }, /address/],
      [{ host: '127.0.0.1' }, /not a device/],
      [{ host: '::1' }, /not a device/],
      [{ host: '169.254.169.254' }, /not a device/],
      [{ host: '0.0.0.0' }, /not a device/],
      [{ host: '224.0.0.1' }, /not a device/],
      [{ host: '::ffff:127.0.0.1' }, /not a device/],
      [{ method: 'CONNECT' }, /method/],
      [{ method: 'TRACE' }, /method/],
      [{ path: '//evil.example/x' }, /path/],
      [{ path: 'http://evil.example/' }, /path/],
      [{ path: '/a\\b' }, /path/],
    ] as [Partial<WebProxyRequest>, RegExp][]) {
      expect(refusal(request(over), false), JSON.stringify(over)).toMatch(why);
    }
  });

  it('reaches loopback only with the test override, and never the agent\'s own 127.0.0.1', () => {
    expect(refusal(request({ host: '127.3.4.5' }), false)).toMatch(/not a device/);
    expect(refusal(request({ host: '127.3.4.5' }), true)).toBeNull();
    expect(refusal(request({ host: '127.0.0.1' }), true)).toMatch(/not a device/);
    expect(deviceWebLoopbackAllowed({ X: '1' }, 'X')).toBe(true);
    expect(deviceWebLoopbackAllowed({}, 'X')).toBe(false);
    expect(() => deviceWebLoopbackAllowed({ X: '1', NODE_ENV: 'production' }, 'X')).toThrow(/refused with NODE_ENV=production/);
  });
});
