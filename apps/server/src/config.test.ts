import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { loadConfig, parseTrustProxy, trustedProxies } from './config.ts';

/** TRUST_PROXY (issue 39): never "believe any X-Forwarded-For"; `true` is a proxy on this machine. */
describe('TRUST_PROXY', () => {
  it('is off by default and for the no-words', () => {
    for (const v of [undefined, '', 'false', '0', 'no', 'OFF']) expect(parseTrustProxy(v)).toBe(false);
  });

  it('reads true as a proxy on this machine, and takes a hop count or a list of addresses and CIDRs', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual(['loopback']);
    expect(parseTrustProxy('yes')).toEqual(['loopback']);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16, ::1, fd00::/8, loopback')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else at start-up, naming the variable', () => {
    for (const v of ['maybe', '10.0.0.300', '10.0.0.0/33', '10.0.0.1/8/1', '11', ',']) expect(() => parseTrustProxy(v)).toThrow(/TRUST_PROXY/);
  });

  it('behind one proxy, the address is the one the proxy saw, whatever the client wrote before it', async () => {
    for (const trust of [parseTrustProxy('true'), parseTrustProxy('127.0.0.1'), parseTrustProxy('1')]) {
      const trustProxy = trustedProxies(trust);
      const app = Fastify({ trustProxy });
      app.get('/', (req) => ({ ip: req.ip }));
      const res = await app.inject({ url: '/', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '10.0.0.5, 203.0.113.9' } });
      expect(res.json().ip).toBe('203.0.113.9');
      // Straight from a client that is not the proxy (list form), its header is not believed.
      if (Array.isArray(trust)) {
        const direct = await app.inject({ url: '/', remoteAddress: '203.0.113.7', headers: { 'x-forwarded-for': '10.0.0.5' } });
        expect(direct.json().ip).toBe('203.0.113.7');
      }
      await app.close();
    }
  });
});


describe('the exports bound from the environment (issue 39)', () => {
  it('runs 2 exports at once with 20 waiting unless told otherwise', () => {
    expect(loadConfig({}).exports).toEqual({ running: 2, waiting: 20 });
    expect(loadConfig({ PAGEWATCH_EXPORTS_RUNNING: '4', PAGEWATCH_EXPORTS_WAITING: '0' }).exports).toEqual({ running: 4, waiting: 0 });
  });

  it('stops the start with the variable named when a value is not a whole number in range', () => {
    expect(() => loadConfig({ PAGEWATCH_EXPORTS_RUNNING: '0' })).toThrow('PAGEWATCH_EXPORTS_RUNNING must be a whole number from 1 to 1000, got "0"');
    expect(() => loadConfig({ PAGEWATCH_EXPORTS_WAITING: 'many' })).toThrow('PAGEWATCH_EXPORTS_WAITING must be a whole number from 0 to 1000, got "many"');
  });
});

/** PAGEWATCH_LANGUAGE (issue 43): the language of mailed reports' files. */
describe('PAGEWATCH_LANGUAGE', () => {
  it('is English by default and takes en or ru in any case', () => {
    expect(loadConfig({}).language).toBe('en');
    expect(loadConfig({ PAGEWATCH_LANGUAGE: 'RU' }).language).toBe('ru');
  });

  it('refuses any other language at start-up, naming the variable', () => {
    expect(() => loadConfig({ PAGEWATCH_LANGUAGE: 'de' })).toThrow(/PAGEWATCH_LANGUAGE/);
  });
});
