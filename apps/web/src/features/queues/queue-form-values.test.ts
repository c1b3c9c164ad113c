import { describe, expect, it } from 'vitest';
import type { Queue } from '@pagewatch/contracts/queues';
import { validateQueue, valuesOf } from './queue-form-values.ts';

describe('queue form: the stored password and a new destination', () => {
  const stored: Queue = {
    id: 5, type: 'IPP', host: 'cups.example.local', port: 631, url: '/printers/office', status: 'OK', statusMessage: null, lastReadAt: null, printerAddress: null,
    jobCount: 0, username: 'reader', passwordSet: true, tokenSet: false, lastJobId: null, agent: { id: 3, name: 'A' },
    location: { id: 1, code: 'DEFAULT', name: 'Default' }, device: null,
  };

  it('asks for the password again when the host, port, path or agent change, unless it is removed', () => {
    const kept = valuesOf(stored);
    expect(validateQueue({ ...kept, username: 'other' }, stored)).toEqual({});
    for (const move of [{ host: 'collector.example.net' }, { port: 8631 }, { url: '/printers/other' }, { agentId: '4' }]) {
      expect(validateQueue({ ...kept, ...move }, stored), JSON.stringify(move)).toEqual({ password: 'queues.passwordAgain' });
      expect(validateQueue({ ...kept, ...move, password: 'typed-again' }, stored)).toEqual({});
      expect(validateQueue({ ...kept, ...move, clearPassword: true }, stored)).toEqual({});
    }
    // A new queue has nothing stored to ask for.
    expect(validateQueue({ ...kept, host: 'collector.example.net' })).toEqual({});
  });
});
