import pg from 'pg';

/**
 * A benchmark's live writes, as a running server has them: `write` every `everyMs` on a
 * connection of its own (opened after the CPU meter, so its work is not counted as the
 * server's). A tick that finds the last write still running skips it, so writes never queue
 * up; no interval (0 writes a second) writes nothing. The returned stop waits for the last write.
 */
export async function liveWriter(url: string, everyMs: number, write: (c: pg.Client, tick: number) => Promise<unknown>): Promise<() => Promise<void>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  let ticks = 0;
  let writing: Promise<unknown> | null = null;
  const timer = Number.isFinite(everyMs) && everyMs > 0
    ? setInterval(() => {
      if (writing) return;
      writing = write(c, ++ticks).catch((e: Error) => console.error(`live writer: ${e.message}`)).finally(() => (writing = null));
    }, everyMs)
    : null;
  return async () => {
    if (timer) clearInterval(timer);
    await writing;
    await c.end();
  };
}
