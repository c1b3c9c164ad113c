import { describe, expect, it } from 'vitest';
import { isInternalAddress, OutboundRefused, resolveOutbound } from './outbound.ts';

describe('outbound addresses (SSRF)', () => {
  it('calls loopback, link-local, unspecified and multicast addresses internal, in both families and IPv4-mapped', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'febf::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:169.254.1.1', 'not-an-address']) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['10.0.0.1', '192.168.1.10', '8.8.8.8', '2001:db8::1', 'fec0::1', '::ffff:8.8.8.8']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('calls an IPv6 address internal when the IPv4 address it carries is, in every spelling (issue 52)', () => {
    const internal = [
      '::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:127.0.0.1', // IPv4-compatible
      '::ffff:7f00:1', '0:0:0:0:0:ffff:127.0.0.1', '::FFFF:127.0.0.1', '::ffff:a9fe:a9fe', // IPv4-mapped, hex and dotted
      '::ffff:0:127.0.0.1', '::ffff:0:7f00:1', // IPv4-translated
      '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::169.254.169.254', '64:ff9b:1::a00:1', // NAT64, well-known and local-use
      '2002:7f00:1::1', '2002:a9fe:a9fe::', // 6to4
      '2001:0:7f00:1::1', '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo: its server, its client (inverted 127.0.0.1)
      'fe80::1%eth0',
    ];
    for (const a of internal) expect(isInternalAddress(a), a).toBe(true);
    for (const a of ['::ffff:808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2001:db8::7f00:1']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('refuses another scheme, and an internal host unless allowed, naming the host only', async () => {
    await expect(resolveOutbound('ftp://example.com/x', true)).rejects.toMatchObject({ key: 'channel.badUrl' });
    await expect(resolveOutbound('not a url', true)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(resolveOutbound('http://127.0.0.1:8080/secret-path', false)).rejects.toMatchObject({ key: 'channel.internalAddress', params: { host: '127.0.0.1' } });
    await expect(resolveOutbound('http://[fe80::1]/', false)).rejects.toMatchObject({ key: 'channel.internalAddress', params: { host: 'fe80::1' } });
    for (const host of ['[::127.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[::ffff:127.0.0.1]', '[2002:7f00:1::]']) {
      await expect(resolveOutbound(`http://${host}/`, false), host).rejects.toMatchObject({ key: 'channel.internalAddress' });
    }
    await expect(resolveOutbound('http://localhost/', false)).rejects.toMatchObject({ key: 'channel.internalAddress', params: { host: 'localhost' } });
    expect(await resolveOutbound('http://127.0.0.1:8080/x', true)).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(await resolveOutbound('http://10.1.2.3/x', false)).toMatchObject({ address: '10.1.2.3', family: 4 });
  });
});
