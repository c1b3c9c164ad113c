/** Spec section 9: a screen's code that has not arrived after this long is reported, not waited for. */
export const CHUNK_TIMEOUT_MS = 120_000;
const RETRY_MS = 2_000;

export class ChunkLoadError extends Error {}

/**
 * Loads a screen's chunk, trying again every RETRY_MS after a failure (a flaky network, a server
 * restarting) until CHUNK_TIMEOUT_MS have passed since the first try.
 */
export async function loadWithRetry<M>(load: () => Promise<M>, timeoutMs = CHUNK_TIMEOUT_MS, retryMs = RETRY_MS): Promise<M> {
  const deadline = Date.now() + timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError('timed out')), timeoutMs);
  });
  try {
    for (;;) {
      try {
        return await Promise.race([load(), timeout]);
      } catch (err) {
        if (err instanceof ChunkLoadError || Date.now() + retryMs >= deadline) throw new ChunkLoadError(String(err));
        await Promise.race([new Promise((r) => setTimeout(r, retryMs)), timeout]);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
