import { describe, expect, it } from 'vitest';
import { ChunkLoadError, loadWithRetry } from './load-with-retry.ts';

describe('loading a screen\'s chunk', () => {
  it('tries again after a failure until the chunk arrives', async () => {
    let tries = 0;
    const load = async () => {
      if (++tries < 3) throw new TypeError('Failed to fetch dynamically imported module');
      return { Screen: 'ok' };
    };
    await expect(loadWithRetry(load, 1_000, 5)).resolves.toEqual({ Screen: 'ok' });
    expect(tries).toBe(3);
  });

  it('gives up with a ChunkLoadError at the time-out, whether the chunk fails or never answers', async () => {
    let tries = 0;
    const failing = async () => {
      tries++;
      throw new TypeError('offline');
    };
    await expect(loadWithRetry(failing, 60, 5)).rejects.toBeInstanceOf(ChunkLoadError);
    expect(tries).toBeGreaterThan(2);
    await expect(loadWithRetry(() => new Promise<never>(() => undefined), 30, 5)).rejects.toBeInstanceOf(ChunkLoadError);
  });
});
