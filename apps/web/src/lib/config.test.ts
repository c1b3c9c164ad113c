import { describe, expect, it } from 'vitest';
import { clientConfigSchema } from '@pagewatch/contracts/config';
import { asClientConfig } from './config.ts';

/** The console's start checks /config.json by hand (it loads no zod); it must agree with the contract's schema. */
describe('asClientConfig', () => {
  const good = { API: '/api', WS: '/ws', NETWORK_RANGE_SHOW_PORTS: true };
  const cases: unknown[] = [
    good,
    { ...good, CLOUD: true },
    { ...good, CLOUD: 'yes' },
    { ...good, MAIL_LINKS: false },
    { ...good, MAIL_LINKS: 'no' },
    { ...good, API: 1 },
    { WS: '/ws', NETWORK_RANGE_SHOW_PORTS: false },
    { ...good, NETWORK_RANGE_SHOW_PORTS: 'false' },
    null,
    'config',
    [],
  ];
  it('accepts and refuses what the contract does, with CLOUD off when absent', () => {
    for (const json of cases) {
      const byContract = clientConfigSchema.safeParse(json);
      expect(asClientConfig(json), JSON.stringify(json)).toEqual(byContract.success ? byContract.data : null);
    }
    expect(asClientConfig(good)?.CLOUD).toBe(false);
  });
});
