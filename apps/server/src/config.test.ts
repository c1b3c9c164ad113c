import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

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
