import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export type Row = Record<string, unknown>;
/** Rows handed on a page at a time; the next page is read once the promise settles. */
export type RowFeed = (emit: (rows: readonly Row[]) => Promise<void>) => Promise<void>;

/** Rows per page of an export: each page is one short statement and a short stretch of writing. */
export const EXPORT_PAGE_ROWS = 500;

/**
 * Every row of `query` (in its order), read a page at a time through a cursor, the event loop
 * given back between pages (issue 39). PGlite runs in the server's own thread: a statement
 * blocks every other request while it runs, so a report of 60,000 rows read as one answer held
 * health for seconds. There the cursor is WITH HOLD, outside any transaction (PGlite is one
 * session, and a transaction would make every other request wait for the whole export): the
 * report is worked out once into the cursor's store and each FETCH is a few milliseconds. On
 * PostgreSQL the cursor lives in a transaction of a pooled connection of its own.
 */
export async function readPages(db: Db, kind: 'pglite' | 'postgres', query: SQL, emit: (rows: readonly Row[]) => Promise<void>, pageRows = EXPORT_PAGE_ROWS): Promise<void> {
  const cursor = sql.raw(`export_${randomBytes(6).toString('hex')}`);
  const walk = async (on: Db) => {
    for (;;) {
      const rows = (await on.execute<Row>(sql`FETCH ${sql.raw(String(pageRows))} FROM ${cursor}`)).rows;
      if (rows.length) await emit(rows);
      if (rows.length < pageRows) return;
      await nextTurn();
    }
  };
  if (kind === 'postgres') {
    await db.transaction(async (tx) => {
      await tx.execute(sql`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query}`);
      await walk(tx);
    });
    return;
  }
  await db.execute(sql`DECLARE ${cursor} NO SCROLL CURSOR WITH HOLD FOR ${query}`);
  try {
    await walk(db);
  } finally {
    await db.execute(sql`CLOSE ${cursor}`).catch(() => undefined);
  }
}

/** Rows already in memory as a feed, a page at a time with the event loop given back between. */
export function feedOf(rows: readonly Row[], pageRows = EXPORT_PAGE_ROWS): RowFeed {
  return async (emit) => {
    for (let i = 0; i < rows.length; i += pageRows) {
      await emit(rows.slice(i, i + pageRows));
      await nextTurn();
    }
  };
}

/** Waits while `out`'s reader is behind (its buffer full), or until it is closed. */
export async function drained(out: Writable): Promise<void> {
  if (out.destroyed) throw new Error('the download was closed');
  if (!out.writableNeedDrain) return;
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
  if (out.destroyed) throw new Error('the download was closed');
}
