import { describe, expect, it } from 'vitest';
import type { Me } from '@pagewatch/contracts/users';
import { canOpen, type AccessCheck } from './screen-access.ts';

const at = (code: string) => ({ locations: [{ id: 1, code, name: code }] }) as unknown as Me;
const auth = (cloud: boolean, location: string): AccessCheck => ({
  hasGrant: () => true,
  hasRole: () => true,
  config: { API: '/api', WS: '/ws', NETWORK_RANGE_SHOW_PORTS: true, CLOUD: cloud, MAIL_LINKS: true },
  user: at(location),
});

describe('screen access', () => {
  it('opens queues and settings to every holder of the grant outside cloud mode', () => {
    expect(canOpen('queues', auth(false, 'ACME'))).toBe(true);
    expect(canOpen('settings', auth(false, 'ACME'))).toBe(true);
  });

  it('keeps queues and settings for the users of DEFAULT in cloud mode (spec section 6)', () => {
    expect(canOpen('queues', auth(true, 'ACME'))).toBe(false);
    expect(canOpen('settings', auth(true, 'ACME'))).toBe(false);
    expect(canOpen('devices', auth(true, 'ACME'))).toBe(true);
    expect(canOpen('queues', auth(true, 'DEFAULT'))).toBe(true);
    expect(canOpen('settings', auth(true, 'DEFAULT'))).toBe(true);
  });
});
