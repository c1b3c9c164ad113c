import { describe, expect, it } from 'vitest';
import { isInternalAddress, OutboundRefused, resolveOutbound } from './outbound.ts';

describe('outbound addresses (SSRF)', () => {
  it('calls loopback, link-local, unspecified and multicast addresses internal, in both families and IPv4-mapped', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'febf::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:169.254.1.1', 'not-an-address']) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['10.0.0.1', '192.168.1.10', '8.8.8.8', '2001:db8::1', 'fec0::1', '::ffff:8.8.8.8']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('refuses another scheme, and an internal host unless allowed, naming the host only', async () => {
    await expect(resolveOutbound('ftp://example.com/x', true)).rejects.toMatchObject({ key: 'channel.badUrl' });
    await expect(resolveOutbound('not a url', true)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(resolveOutbound('http://127.0.0.1:8080/secret-path', false)).rejects.toMatchObject({ key: 'channel.internalAddress', params: { host: '127.0.0.1' } });
    await expect(resolveOutbound('http://[fe80::1]/', false)).rejects.toMatchObject({ key: 'channel.internalAddress', params: { host: 'fe80::1' } });
    await expect(resolveOutbound('http://localhost/', false)).rejects.toMatchObject({ key: 'channel.internalAddress', params: { host: 'localhost' } });
    expect(await resolveOutbound('http://127.0.0.1:8080/x', true)).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(await resolveOutbound('http://10.1.2.3/x', false)).toMatchObject({ address: '10.1.2.3', family: 4 });
  });
});
