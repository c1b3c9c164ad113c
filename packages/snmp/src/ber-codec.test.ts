import { describe, expect, it } from 'vitest';
import { BerError, PDU, TAG, decodeMessage, encodeMessage, encodeOid, encodeValue, messageVersion, type WireMessage, type WireVarbind } from './ber-codec.ts';

/** The BER codec of discovery, the sweep and the simulated printers (issue 56): bytes checked by hand against X.690. */
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const get = (varbinds: WireVarbind[], version = 1, community = 'public'): WireMessage => ({
  version, community, pdu: { type: PDU.get, requestId: 1, errorStatus: 0, errorIndex: 0, varbinds },
});

describe('BER: encoding', () => {
  it('a v2c GetRequest of sysDescr.0, byte for byte', () => {
    const bytes = encodeMessage(get([{ oid: '1.3.6.1.2.1.1.1.0', tag: TAG.null, value: null }]));
    // SEQUENCE(40) { INTEGER 1 (v2c), OCTET STRING "public", GetRequest(25) { id 1, status 0, index 0, SEQUENCE { SEQUENCE { OID, NULL } } } }
    expect(hex(bytes)).toBe('3026' + '020101' + '0406' + '7075626c6963' + 'a019' + '020101' + '020100' + '020100' + '300e' + '300c' + '06082b06010201010100' + '0500');
  });

  it('integers in two\'s complement, as short as they go', () => {
    expect([0, 127, 128, 255, 256, -1, -128, -129, 2 ** 31 - 1, -(2 ** 31)].map((n) => hex(encodeValue(TAG.integer, n)))).toEqual([
      '020100', '02017f', '02020080', '020200ff', '02020100', '0201ff', '020180', '0202ff7f', '02047fffffff', '020480000000',
    ]);
  });

  it('unsigned types: a leading zero where the top bit is set, Counter32 within 32 bits, Counter64 whole', () => {
    expect(hex(encodeValue(TAG.counter32, 4_294_967_295))).toBe('410500ffffffff');
    expect(hex(encodeValue(TAG.counter32, 2 ** 32 + 5))).toBe('410105'); // wraps as the counter does
    expect(hex(encodeValue(TAG.gauge32, -3))).toBe('420100'); // no negative gauge
    expect(hex(encodeValue(TAG.counter64, 2n ** 64n - 1n))).toBe('460900ffffffffffffffff');
  });

  it('OID arcs of 128 and more in base 128, the first two arcs in one byte', () => {
    // 2435 = 0x983 = 19 · 128 + 3: 0x93 0x03.
    expect(hex(encodeOid('1.3.6.1.4.1.2435'))).toBe('06072b060104019303');
    expect(hex(encodeOid('.1.3.6.1.4.1.2435'))).toBe(hex(encodeOid('1.3.6.1.4.1.2435')));
    expect(() => encodeOid('1')).toThrow(BerError);
    expect(() => encodeOid('1.3.x')).toThrow(BerError);
  });

  it('a length of 128 and more in the long form', () => {
    const long = encodeValue(TAG.octets, new Uint8Array(300));
    expect(hex(long.subarray(0, 4))).toBe('0482012c');
    expect(long.length).toBe(4 + 300);
    expect(hex(encodeValue(TAG.octets, 'ab'))).toBe('04026162');
    expect(hex(encodeValue(TAG.ip, '127.0.0.1'))).toBe('40047f000001');
  });
});

describe('BER: decoding', () => {
  it('gives back every value type it encoded', () => {
    const varbinds: WireVarbind[] = [
      { oid: '1.3.6.1.2.1.1.3.0', tag: TAG.timeticks, value: 1_187_785 },
      { oid: '1.3.6.1.2.1.43.11.1.1.9.1.1', tag: TAG.integer, value: -3 },
      { oid: '1.3.6.1.2.1.43.10.2.1.4.1.1', tag: TAG.counter32, value: 42_976 },
      { oid: '1.3.6.1.2.1.31.1.1.1.6.1', tag: TAG.counter64, value: 2n ** 40n },
      { oid: '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0', tag: TAG.octets, value: Buffer.from([0x81, 0x01, 0x04, 0, 0, 0, 0x1e, 0xff]) },
      { oid: '1.3.6.1.2.1.1.2.0', tag: TAG.oid, value: '1.3.6.1.4.1.2435.2.3.9.1' },
      { oid: '1.3.6.1.2.1.4.20.1.1.127.0.0.1', tag: TAG.ip, value: '127.0.0.1' },
      { oid: '1.3.6.1.2.1.1.9.0', tag: TAG.noSuchObject, value: null },
      { oid: '1.3.6.1.2.1.1.10.0', tag: TAG.endOfMibView, value: null },
    ];
    const msg: WireMessage = { version: 0, community: 'internal', pdu: { type: PDU.response, requestId: 2 ** 31 - 1, errorStatus: 2, errorIndex: 1, varbinds } };
    expect(decodeMessage(encodeMessage(msg))).toEqual(msg);
  });

  it('reads the version of any SNMP message, and refuses what it cannot decode', () => {
    const v2c = encodeMessage(get([]));
    expect(messageVersion(v2c)).toBe(1);
    expect(messageVersion(Uint8Array.from([0x30, 0x03, 0x02, 0x01, 0x03]))).toBe(3);
    expect(messageVersion(Uint8Array.from([0x47, 0x45, 0x54]))).toBeNull(); // "GET": not SNMP
    // SNMPv3 is not this codec's: a clear error, not a wrong message.
    expect(() => decodeMessage(Uint8Array.from([0x30, 0x03, 0x02, 0x01, 0x03]))).toThrow(/version 3/);
    // Cut short anywhere: BerError, never a message made of what was there.
    for (const end of [1, 2, 10, v2c.length - 1]) expect(() => decodeMessage(v2c.subarray(0, end))).toThrow(BerError);
    // An integer longer than six bytes is not one the codec takes.
    expect(() => decodeMessage(Uint8Array.from([0x30, 0x09, 0x02, 0x07, 1, 2, 3, 4, 5, 6, 7]))).toThrow(/bad integer/);
  });
});

describe('BER: bad input', () => {
  it('refuses an OID it would encode as another one', () => {
    // A trailing or doubled dot is no arc 0, and 1.40 is not 2.0: each would go out as a different OID.
    for (const oid of ['', '1.3.6.1.', '1..3', '1.3. 6', '-1.3', '3.1', '1.40', '0.39.1x']) expect(() => encodeOid(oid), oid).toThrow(BerError);
    expect(hex(encodeOid('2.999.3'))).toBe('0603883703');
    expect(hex(encodeOid('0.39'))).toBe('060127');
  });

  it('refuses an IpAddress that is not four bytes', () => {
    for (const ip of ['127.0.0', '127.0.0.1.5', '256.0.0.1', 'printer', '1.2.3.-4']) expect(() => encodeValue(TAG.ip, ip), ip).toThrow(BerError);
  });

  it('refuses an OID cut in the middle of an arc', () => {
    // sysDescr.0 in a GetRequest, its OID's last byte (0x00) replaced by the first of a two-byte arc.
    const bytes = Buffer.from(encodeMessage(get([{ oid: '1.3.6.1.2.1.1.1.0', tag: TAG.null, value: null }])));
    const at = bytes.indexOf(Buffer.from('06082b06010201010100', 'hex')) + 9;
    bytes[at] = 0x86;
    expect(() => decodeMessage(bytes)).toThrow(/OID/);
  });

  it('refuses a message of the wrong shape with BerError', () => {
    const good = hex(encodeMessage(get([{ oid: '1.3.6.1.2.1.1.1.0', tag: TAG.null, value: null }])));
    const bad = {
      'not a SEQUENCE': '31' + good.slice(2),
      'a length of five bytes': '3085000000002602010104067075626c6963',
      'a length past the end': '3040' + good.slice(4),
      'no PDU where one goes': good.replace('a019', '3019'),
      'a varbind name that is no OID': good.replace('06082b06010201010100', '04082b06010201010100'),
      'an empty integer': good.replace('a019020101', 'a0180200'),
    };
    for (const [what, h] of Object.entries(bad)) expect(() => decodeMessage(Buffer.from(h, 'hex')), what).toThrow(BerError);
  });

  it('decodes the types the round trip above leaves out: Gauge32, Opaque, NULL, noSuchInstance', () => {
    const varbinds: WireVarbind[] = [
      { oid: '1.3.6.1.2.1.2.2.1.5.1', tag: TAG.gauge32, value: 4_294_967_295 },
      { oid: '1.3.6.1.4.1.1.1', tag: TAG.opaque, value: Buffer.from([0x9f, 0x78, 0x04, 0x42, 0xf6, 0x00, 0x00]) },
      { oid: '1.3.6.1.2.1.1.1.0', tag: TAG.null, value: null },
      { oid: '1.3.6.1.2.1.1.99.0', tag: TAG.noSuchInstance, value: null },
    ];
    const msg = get(varbinds, 0, 'private');
    expect(decodeMessage(encodeMessage(msg))).toEqual(msg);
  });
});
