/** Sleeps that `wake()` (a new spool segment, the stop) cuts short, all at once. */
export function createWakeableSleep(): { sleep(ms: number): Promise<void>; wake(): void } {
  const wakers = new Set<() => void>();
  return {
    sleep: (ms) =>
      new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        wakers.add(done);
      }),
    wake: () => {
      for (const w of [...wakers]) w();
    },
  };
}
